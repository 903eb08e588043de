"""Prints the fixes of a SARIF log's results, or applies them, for
gate-fixes.test.

    sarif_fixes.py LOG.sarif               one line per result, one per fix and
                                           one per replacement
    sarif_fixes.py LOG.sarif --apply ROOT  applies each result's first fix to the
                                           files under ROOT (the log's %SRCROOT%)

Applying checks that each replacement's deletedRegion says the same thing
twice: its lines and columns (Unicode code points, the run's columnKind) and
its charOffset/charLength; a difference is an error (status 1).
"""
import json
import os
import sys


def region_text(r):
    return "%d:%d-%d:%d chars %d+%d" % (r["startLine"], r["startColumn"], r["endLine"],
                                        r["endColumn"], r["charOffset"], r["charLength"])


def offset_of(text, line, col):
    lines = text.split("\n")
    return sum(len(x) + 1 for x in lines[:line - 1]) + col - 1


def main():
    with open(sys.argv[1]) as f:
        run = json.load(f)["runs"][0]
    apply_root = sys.argv[3] if len(sys.argv) > 3 and sys.argv[2] == "--apply" else None
    edits = {}
    for res in run.get("results", []):
        loc = res["locations"][0]["physicalLocation"]
        fixes = res.get("fixes", [])
        if not apply_root:
            print("result: %s:%d fixes=%d" % (loc["artifactLocation"]["uri"],
                                              loc["region"]["startLine"], len(fixes)))
        for k, fix in enumerate(fixes):
            if not apply_root:
                print("  fix: %s" % fix["description"]["text"])
            for change in fix["artifactChanges"]:
                uri = change["artifactLocation"]["uri"]
                for rep in change["replacements"]:
                    r, text = rep["deletedRegion"], rep["insertedContent"]["text"]
                    if not apply_root:
                        print("    %s %s insert %r" % (uri, region_text(r), text))
                    elif k == 0:
                        edits.setdefault(uri, []).append((r, text))
    for uri, reps in edits.items():
        path = os.path.join(apply_root, uri)
        with open(path, encoding="utf-8") as f:
            data = f.read()
        for r, text in sorted(reps, key=lambda x: -x[0]["charOffset"]):
            start = offset_of(data, r["startLine"], r["startColumn"])
            end = offset_of(data, r["endLine"], r["endColumn"])
            if (start, end - start) != (r["charOffset"], r["charLength"]):
                print("error: %s: lines/columns give %d+%d, charOffset/charLength %d+%d"
                      % (uri, start, end - start, r["charOffset"], r["charLength"]))
                return 1
            data = data[:start] + text + data[end:]
        with open(path, "w", encoding="utf-8") as f:
            f.write(data)
        print("applied %d replacement%s to %s" % (len(reps), "" if len(reps) == 1 else "s", uri))
    return 0


if __name__ == "__main__":
    sys.exit(main())
