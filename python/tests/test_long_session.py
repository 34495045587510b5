"""A long session on one server: accounts let go at teardown, a failing test's requests in its report, fault
rules from the marker."""

import textwrap

MANY_TESTS = """
import pytest

BODY = {"attachment": "https://example.com/a.jpg", "categories": ["a", "b"]}

@pytest.mark.parametrize("n", range(200))
def test_creates_data(labelmock, n):
    if n % 3 == 0:
        labelmock.settings(completion="immediate")
    if n % 5 == 0:
        labelmock.call("POST", "/v1/task/categorization", BODY, key=labelmock.live_key)
    task = labelmock.call("POST", "/v1/task/categorization", BODY)
    assert labelmock.call("GET", f"/v1/task/{task['task_id']}")["task_id"] == task["task_id"]
"""


def test_200_data_creating_tests_run_on_a_server_that_holds_50_tenants(pytester):
    pytester.makepyfile(MANY_TESTS)
    result = pytester.runpytest_subprocess("--labelmock-args", "--max-tenants 50", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=200)


def test_a_failing_test_s_report_shows_its_account_s_last_requests(pytester):
    pytester.makepyfile(
        textwrap.dedent(
            """
            def test_fails(labelmock):
                labelmock.call("POST", "/v1/task/categorization",
                               {"attachment": "https://example.com/a.jpg", "categories": ["a", "b"]})
                try:
                    labelmock.call("GET", "/v1/task/000000000000000000000000")
                except Exception:
                    pass
                assert False, "the app under test got it wrong"
            """
        )
    )
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        [
            "*- labelmock requests -*",
            "test_* at http://127.0.0.1:*: the last 2 request(s), newest first",
            "*GET /v1/task/000000000000000000000000 -> 404",
            "*Task with that ID not found*",
            "*POST /v1/task/categorization -> 200",
        ]
    )


def test_a_passing_test_s_report_has_no_such_section(pytester):
    pytester.makepyfile("def test_passes(labelmock):\n    labelmock.call('GET', '/v1/tasks')\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-rA")
    result.assert_outcomes(passed=1)
    assert "labelmock requests" not in result.stdout.str()


def test_the_marker_takes_fault_rules_beside_settings(pytester):
    pytester.makepyfile(
        textwrap.dedent(
            """
            import pytest
            from pytest_labelmock import ControlError

            @pytest.mark.labelmock(completion="immediate", faults=[{"path": "/v1/tasks", "status": 503, "times": 1}])
            def test_faulted(labelmock):
                with pytest.raises(ControlError) as raised:
                    labelmock.call("GET", "/v1/tasks")
                assert raised.value.status == 503
                assert labelmock.call("GET", "/v1/tasks")["total"] == 0
                assert labelmock.settings()["completion"]["mode"] == "immediate"
            """
        )
    )
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
