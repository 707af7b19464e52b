# Schemathesis hooks for npm run fuzz (SCHEMATHESIS_HOOKS): bodies of media types it cannot serialize itself.
import json

import schemathesis


@schemathesis.serializer("application/x-ndjson")
def ndjson(ctx, value):
    """NDJSON (POST /v1/leads/import): one JSON document per line; a generated list is one record per line."""
    if isinstance(value, bytes):
        return {"data": value}
    if isinstance(value, str):
        return {"data": value.encode("utf8")}
    rows = value if isinstance(value, list) else [value]
    return {"data": "\n".join(json.dumps(row) for row in rows).encode("utf8")}
