"""The official Python client's transport and its recovery of a lost creation answer, as written in
scaleapi/scaleapi-python-client scaleapi/api.py (commit b4111b2a1c02b3bb46e5ecd0798629a7f8eba7ed):

- every call goes through a requests Session whose urllib3 Retry (total=3, backoff_factor=2, statuses 408,
  429 and 500-530, methods GET, POST and DELETE, raise_on_status=False) is mounted on https:// only;
- a 409 on a task route whose body has a unique_id, after a first attempt answered >= 500, is a creation
  that was applied but whose answer was lost: the client fetches GET {base}/tasks?unique_id= and returns
  the first doc.

The client itself cannot be installed on the CI machine (no PyPI there), so this script drives the same
requests and urllib3 code the same way. Usage: client_transport.py BASE_URL KEY CA_FILE SCENARIO [ARG]
and it prints one JSON object: what the client's caller would have got.
"""

import json
import sys

import requests
from requests.adapters import HTTPAdapter, Retry

STATUS_FORCE_LIST = [408, 429] + list(range(500, 531))


def session(verify):
    https = requests.Session()
    retry = Retry(
        total=3,
        backoff_factor=2,
        status_forcelist=STATUS_FORCE_LIST,
        allowed_methods=frozenset({"GET", "POST", "DELETE"}),
        raise_on_status=False,
    )
    https.mount("https://", HTTPAdapter(max_retries=retry))
    https.verify = verify
    return https


def api_request(base, key, verify, method, endpoint, body=None):
    headers = {"Content-Type": "application/json", "User-Agent": "scaleapi/2.18.4 transport-test"}
    res = session(verify).request(method, f"{base}/{endpoint}", headers=headers, auth=(key, ""), json=body)
    if res.status_code == 200:
        return {"status": 200, "json": res.json()}
    if res.status_code == 409 and "task" in endpoint and body.get("unique_id"):
        history = getattr(getattr(res.raw, "retries", None), "history", ()) or ()
        if history and history[0][3] >= 500:
            # The client's follow-up read is sent without its verify= (api.py passes none): only
            # REQUESTS_CA_BUNDLE makes it trust a private CA.
            found = session(None).get(f"{base}/tasks?unique_id={body['unique_id']}", headers=headers, auth=(key, ""))
            docs = found.json().get("docs", []) if found.status_code == 200 else []
            if docs:
                return {"status": 200, "json": docs[0], "recovered": True, "first_status": history[0][3]}
    return {"status": res.status_code, "error": res.json().get("error")}


def main():
    base, key, ca_file, scenario = sys.argv[1:5]
    if scenario == "list":
        out = api_request(base, key, ca_file, "GET", "tasks")
    elif scenario == "create":
        body = {
            "unique_id": sys.argv[5],
            "attachment": "https://example.com/a.png",
            "instruction": "Box the cars",
            "geometries": {"box": {"objects_to_annotate": ["car"]}},
        }
        out = api_request(base, key, ca_file, "POST", "task/imageannotation", body)
    else:
        raise SystemExit(f"unknown scenario {scenario}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
