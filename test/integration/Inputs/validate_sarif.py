"""Validates a SARIF log against the official SARIF 2.1.0 schema and the
committed subset (what GitHub code scanning reads), then prints one line per
result (rule, file, line, columns, level, fingerprint keys) and per rule for
FileCheck.

    validate_sarif.py LOG.sarif

sarif-schema-2.1.0.json is the OASIS SARIF 2.1.0 schema (its final
"2.1.0-rtm.5" text, as published by SchemaStore), copied unchanged from the
npm package @microsoft/jest-sarif 1.0.0-beta.0 (MIT), file
lib/schemas/sarif-2.1.0-rtm.5.json.
"""
import json
import os
import sys

import jsonschema  # python3-jsonschema

here = os.path.dirname(os.path.abspath(__file__))
with open(sys.argv[1]) as f:
    log = json.load(f)
errors = []
for name, cls in (("sarif-schema-2.1.0.json", jsonschema.Draft4Validator),
                  ("sarif-2.1.0-subset.schema.json", jsonschema.Draft7Validator)):
    with open(os.path.join(here, name)) as f:
        schema = json.load(f)
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    errors += [(name, e) for e in validator.iter_errors(log)]
for name, e in errors:
    print("invalid (%s): /%s: %s" % (name, "/".join(map(str, e.path)), e.message))
if errors:
    sys.exit(1)
print("valid SARIF %s, %d run(s)" % (log["version"], len(log["runs"])))
for run in log["runs"]:
    print("execution successful: %s" % run["invocations"][0]["executionSuccessful"])
    for n in (run.get("invocations") or [{}])[0].get("toolExecutionNotifications") or []:
        print("notification: %s %s" % (n["level"], n["message"]["text"]))
    for rule in run["tool"]["driver"].get("rules", []):
        print("rule: %s full=%s help=%s markdown=%s helpUri=%s" % (
            rule["id"], "fullDescription" in rule, "text" in rule.get("help", {}),
            "markdown" in rule.get("help", {}), rule.get("helpUri", "-")))
    for r in run.get("results", []):
        loc = r["locations"][0]["physicalLocation"]
        print("result: %s %s:%d:%d-%s %s %s" % (
            r["ruleId"], loc["artifactLocation"]["uri"], loc["region"]["startLine"],
            loc["region"]["startColumn"], loc["region"].get("endColumn", "?"),
            r["level"], ",".join(sorted(r.get("partialFingerprints", {})))))
        print("  message: %s" % r["message"]["text"])
        for rel in r.get("relatedLocations", []):
            p = rel["physicalLocation"]
            print("  related: %s:%d:%d %s" % (
                p["artifactLocation"]["uri"], p["region"]["startLine"],
                p["region"]["startColumn"], rel["message"]["text"]))
