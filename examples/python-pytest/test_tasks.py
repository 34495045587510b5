"""An app's tests against labelmock, with plain `requests` (the official client works the same way:
ScaleClient(api_key, api_instance_url=f"{labelmock_url}/v1"))."""

import requests


def test_a_created_task_completes_through_the_control_plane(labelmock_url, api_key):
    auth = (api_key, "")
    created = requests.post(
        f"{labelmock_url}/v1/task/categorization",
        auth=auth,
        json={"attachment": "https://example.com/a.jpg", "categories": ["cat", "dog"]},
        timeout=10,
    )
    assert created.status_code == 200
    task_id = created.json()["task_id"]
    assert created.json()["status"] == "pending"

    done = requests.post(
        f"{labelmock_url}/_mock/tasks/{task_id}/complete", auth=auth, json={"response": {"category": "dog"}}, timeout=10
    )
    assert done.status_code == 200
    read = requests.get(f"{labelmock_url}/v1/task/{task_id}", auth=auth, timeout=10).json()
    assert read["status"] == "completed"
    assert read["response"] == {"category": "dog"}


def test_each_test_has_its_own_tenant(labelmock_url, api_key):
    listed = requests.get(f"{labelmock_url}/v1/tasks", auth=(api_key, ""), timeout=10)
    assert listed.status_code == 200
    assert listed.json()["total"] == 0


def test_a_bad_request_names_the_field(labelmock_url, api_key):
    res = requests.post(f"{labelmock_url}/v1/task/categorization", auth=(api_key, ""), json={}, timeout=10)
    assert res.status_code == 400
    assert "attachment" in res.json()["error"]
