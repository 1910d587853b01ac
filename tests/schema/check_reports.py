#!/usr/bin/python3
# SPDX-License-Identifier: Apache-2.0
"""Checks the clients' JSON reports against doc/report.schema.json.

Usage: check_reports.py [--strict] SCHEMA PATH...

Each PATH is a file or a directory (searched for *.json). A file that is not
a JSON object written by a client (its "program" is SOCK_STREAM_clt or
SOCK_SEQPACK_clt) is passed over and counted: tests keep other JSON beside
the reports (compare documents, sweep tables, command lines). A directory
named "broken" is passed over: it holds reports a test spoiled on purpose;
so is a report the statistical tier synthesized (it has a "synthetic" key).

--strict reads every object of the schema that lists its properties as
closed, so a key the schema does not name is an error. The published schema
leaves objects open, because an added key keeps the format version and a
reader of version 2 must accept a newer client's report; the tests close
them, so that a key written without being added to the schema fails a test.

Exit status: 0 when every report conforms, 1 when one does not, 2 on a usage
error or a schema that is not valid JSON Schema.
"""

import json
import os
import sys

try:
    from jsonschema import Draft202012Validator
except ImportError:
    sys.stderr.write(
        "check_reports: Python's jsonschema module is missing: "
        "install python3-jsonschema (scripts/install-deps.sh test does)\n")
    sys.exit(2)

CLIENTS = {"SOCK_STREAM_clt", "SOCK_SEQPACK_clt"}


def closed(schema):
    """The schema with additionalProperties false on every object that
    lists properties and says nothing of others. An "if" is left as it is:
    it asks a question of a document, and a closed question would be
    answered no by every report that has any other key."""
    if isinstance(schema, dict):
        out = {key: value if key == "if" else closed(value) for key, value in schema.items()}
        if "properties" in out and "additionalProperties" not in out \
                and "patternProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(schema, list):
        return [closed(value) for value in schema]
    return schema


def report_files(paths):
    for path in paths:
        if os.path.isdir(path):
            for top, dirs, names in os.walk(path):
                # Reports a test broke on purpose, to see a reader refuse them.
                dirs[:] = sorted(d for d in dirs if d != "broken")
                for name in sorted(names):
                    if name.endswith(".json"):
                        yield os.path.join(top, name)
        else:
            yield path


def read_json(path):
    """The decoded file, or None when it is not JSON."""
    try:
        with open(path, encoding="utf-8") as f:
            return json.load(f)
    except (OSError, ValueError, UnicodeDecodeError):
        return None


def is_client_report(doc):
    # The statistical tier's synthetic reports are made from a client's and
    # say so in "synthetic": no client wrote them.
    return isinstance(doc, dict) and doc.get("program") in CLIENTS and "synthetic" not in doc


def deepest(error):
    """The error behind an anyOf (a nullable object, a counter set chosen by
    its source): the alternative that came nearest, down to its own error,
    so the message names the key at fault rather than the whole object."""
    while error.context:
        error = max(error.context, key=lambda e: (len(e.absolute_path), e.validator != "type"))
    return error


def where(error):
    return "/" + "/".join(str(part) for part in error.absolute_path)


def main(argv):
    strict = "--strict" in argv
    args = [a for a in argv if a != "--strict"]
    if len(args) < 2:
        sys.stderr.write(__doc__)
        return 2
    with open(args[0], encoding="utf-8") as f:
        schema = json.load(f)
    try:
        Draft202012Validator.check_schema(schema)
    except Exception as e:  # the library's SchemaError, said in one line
        sys.stderr.write(f"check_reports: {args[0]} is not valid JSON Schema: {e}\n")
        return 2
    validator = Draft202012Validator(closed(schema) if strict else schema)
    checked = passed_over = not_json = failed = 0
    for path in report_files(args[1:]):
        doc = read_json(path)
        if not is_client_report(doc):
            passed_over += 1
            not_json += doc is None
            continue
        checked += 1
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        if errors:
            failed += 1
            for error in (deepest(e) for e in errors[:20]):
                message = error.message if len(error.message) < 300 else error.message[:300] + "..."
                sys.stderr.write(f"{path}: at {where(error)}: {message}\n")
    print(f"check_reports: {checked} client reports checked, {failed} not conforming"
          f" ({passed_over} other files passed over, {not_json} of them not JSON)"
          f"{' (strict)' if strict else ''}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
