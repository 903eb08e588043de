"""Validates a SARIF log against the committed schema subset, then prints
one line per result (rule, file, line, column, level) for FileCheck.

    validate_sarif.py LOG.sarif
"""
import json
import os
import sys

import jsonschema  # python3-jsonschema

here = os.path.dirname(os.path.abspath(__file__))
with open(os.path.join(here, "sarif-2.1.0-subset.schema.json")) as f:
    schema = json.load(f)
with open(sys.argv[1]) as f:
    log = json.load(f)
validator = jsonschema.Draft7Validator(
    schema, format_checker=jsonschema.Draft7Validator.FORMAT_CHECKER)
errors = sorted(validator.iter_errors(log), key=lambda e: list(e.path))
for e in errors:
    print("invalid: /%s: %s" % ("/".join(map(str, e.path)), e.message))
if errors:
    sys.exit(1)
print("valid SARIF %s, %d run(s)" % (log["version"], len(log["runs"])))
for run in log["runs"]:
    for n in (run.get("invocations") or [{}])[0].get("toolExecutionNotifications") or []:
        print("notification: %s %s" % (n["level"], n["message"]["text"]))
    for r in run.get("results", []):
        loc = r["locations"][0]["physicalLocation"]
        print("result: %s %s:%d:%d %s" % (
            r["ruleId"], loc["artifactLocation"]["uri"], loc["region"]["startLine"],
            loc["region"]["startColumn"], r["level"]))
        for rel in r.get("relatedLocations", []):
            p = rel["physicalLocation"]
            print("  related: %s:%d:%d %s" % (
                p["artifactLocation"]["uri"], p["region"]["startLine"],
                p["region"]["startColumn"], rel["message"]["text"]))
