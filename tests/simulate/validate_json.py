"""Validates an eagle-simulate JSON file against perf/simulate/simulate.schema.json."""
import json
import sys

import jsonschema

schema_path, instance_path = sys.argv[1], sys.argv[2]
with open(schema_path) as f:
    schema = json.load(f)
with open(instance_path) as f:
    instance = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.Draft202012Validator(schema).validate(instance)
batches = instance["batches"]
assert batches and all(b["fastest"] for b in batches), "every batch has a fastest arm"
print(f"{instance_path}: valid against {schema_path} ({len(batches)} batches)")
