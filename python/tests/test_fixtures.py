"""The `labelmock` fixture against the session's server: a fresh account per test, and the control plane."""

import pytest

from pytest_labelmock import ControlError

CATEGORIZATION = {"attachment": "https://example.com/a.jpg", "categories": ["cat", "dog"]}


def create(labelmock, **extra):
    return labelmock.call("POST", "/v1/task/categorization", {**CATEGORIZATION, **extra})


@pytest.mark.parametrize("run", ["first", "second"])
def test_each_test_starts_with_an_empty_account(labelmock, run):
    assert labelmock.call("GET", "/v1/tasks")["total"] == 0
    create(labelmock)
    assert labelmock.call("GET", "/v1/tasks")["total"] == 1
    assert labelmock.call("GET", "/v1/tasks", key=labelmock.live_key)["total"] == 0


def test_complete_fail_and_redo(labelmock):
    done = create(labelmock)["task_id"]
    labelmock.complete(done, response={"category": "dog"})
    read = labelmock.call("GET", f"/v1/task/{done}")
    assert (read["status"], read["response"]) == ("completed", {"category": "dog"})
    assert labelmock.redo(done)["status"] == "pending"
    failed = create(labelmock)["task_id"]
    assert labelmock.fail(failed, error="no image")["status"] == "error"


def test_the_virtual_clock_brings_a_delayed_completion(labelmock):
    labelmock.settings(completion={"mode": "delay", "delay_ms": 60_000})
    task_id = create(labelmock)["task_id"]
    assert labelmock.call("GET", f"/v1/task/{task_id}")["status"] == "pending"
    labelmock.advance_clock(61)
    assert labelmock.call("GET", f"/v1/task/{task_id}")["status"] == "completed"


@pytest.mark.labelmock(completion="immediate")
def test_the_marker_sets_the_tenant_and_wait_for_sees_the_event(labelmock):
    assert labelmock.settings()["completion"]["mode"] == "immediate"
    task_id = create(labelmock)["task_id"]
    event = labelmock.wait_for("task.completed", task_id=task_id, timeout=10)
    assert event["event"]["task_id"] == task_id


def test_wait_for_without_the_event_is_a_408(labelmock):
    with pytest.raises(ControlError) as raised:
        labelmock.wait_for("task.completed", timeout=0.05)
    assert raised.value.status == 408


def test_a_fault_rule_and_the_request_journal(labelmock):
    labelmock.fault(path="/v1/tasks", status=503, times=1)
    with pytest.raises(ControlError) as raised:
        labelmock.call("GET", "/v1/tasks")
    assert raised.value.status == 503
    assert labelmock.call("GET", "/v1/tasks")["total"] == 0
    assert [entry["status"] for entry in labelmock.requests(path="/v1/tasks")] == [200, 503]


def test_callbacks_are_journaled(labelmock):
    # An e-mail callback target is journaled and never sent: nothing leaves the machine.
    task_id = create(labelmock, callback_url="hooks@example.com")["task_id"]
    labelmock.complete(task_id)
    assert [d["task_id"] for d in labelmock.callbacks()] == [task_id]


def test_a_timeline_tells_a_task_s_life_in_order(labelmock):
    task_id = create(labelmock)["task_id"]
    labelmock.complete(task_id)
    labelmock.redo(task_id)
    kinds = [entry["kind"] for entry in labelmock.timeline(task_id) if entry["kind"] != "request"]
    assert kinds == ["created", "completed", "redone"]


def test_an_error_names_the_route_and_the_reason(labelmock):
    with pytest.raises(ControlError, match=r"POST /v1/task/categorization answered 400: .*attachment"):
        labelmock.call("POST", "/v1/task/categorization", {})
