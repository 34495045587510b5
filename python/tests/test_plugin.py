"""The plugin as users meet it, in pytest sessions of its own (pytester): options, pytest-xdist, a missing Node,
and the official client's wiring."""

import importlib.util
import textwrap

USES_SERVER = """
import json, os

def test_server(labelmock, labelmock_server):
    created = labelmock.call("POST", "/v1/task/categorization",
                             {"attachment": "https://example.com/a.jpg", "categories": ["a", "b"]})
    read = labelmock.call("GET", f"/v1/task/{created['task_id']}")
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    with open(f"server-{worker}-{os.getpid()}.json", "w") as out:
        json.dump({"url": labelmock_server.base_url, "status": read["status"]}, out)
"""


def servers_seen(pytester):
    import json

    return [json.loads(path.read_text()) for path in sorted(pytester.path.glob("server-*.json"))]


def test_the_completion_option_reaches_the_server(pytester):
    pytester.makepyfile(USES_SERVER)
    result = pytester.runpytest_subprocess("--labelmock-completion", "immediate", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert [seen["status"] for seen in servers_seen(pytester)] == ["completed"]


def test_the_ini_key_does_too(pytester):
    pytester.makeini("[pytest]\nlabelmock_args = --completion immediate\n")
    pytester.makepyfile(USES_SERVER)
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=1)
    assert [seen["status"] for seen in servers_seen(pytester)] == ["completed"]


def test_pytest_xdist_runs_one_server_per_worker(pytester):
    for name in ("a", "b", "c", "d"):
        pytester.makepyfile(**{f"test_{name}": USES_SERVER})
    result = pytester.runpytest_subprocess("-n", "2", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=4)
    by_worker = {}
    for path in pytester.path.glob("server-*.json"):
        worker = path.name.split("-")[1]
        by_worker.setdefault(worker, set()).add(__import__("json").loads(path.read_text())["url"])
    assert sorted(by_worker) == ["gw0", "gw1"]
    urls = [next(iter(seen)) for seen in by_worker.values()]
    assert all(len(seen) == 1 for seen in by_worker.values())
    assert len(set(urls)) == 2


def test_a_missing_node_is_one_clear_line(pytester, monkeypatch):
    monkeypatch.setenv("LABELMOCK_NODE", "/nonexistent/node")
    pytester.makepyfile("def test_needs_it(labelmock):\n    pass\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*LABELMOCK_NODE=/nonexistent/node is not Node.js 20 or later (it does not run)*"])
    assert "Traceback" not in result.stdout.str()


def test_scale_client_without_the_official_client_is_skipped_with_the_reason(pytester):
    pytester.makepyfile("def test_client(scale_client):\n    assert scale_client\n")
    result = pytester.runpytest_subprocess("-rs", "-p", "no:cacheprovider")
    if importlib.util.find_spec("scaleapi") is None:
        result.assert_outcomes(skipped=1)
        result.stdout.fnmatch_lines(["*scale_client needs the official client: pip install scaleapi*"])
    else:
        result.assert_outcomes(passed=1)


# A stand-in with the official client's constructor and v2 wiring as scaleapi-python-client @ b4111b2 has them
# (scaleapi/__init__.py: ScaleClient(api_key, source=None, api_instance_url=None, verify=None, proxies=None,
# cert=None) builds V2Api(ApiClient(Configuration(access_token=api_key))); the host is configuration.host). It
# records what the fixtures pass, so the wiring is checked where the real client cannot be installed.
STAND_IN = textwrap.dedent(
    """
    from types import SimpleNamespace

    built = []

    class ScaleClient:
        def __init__(self, api_key, source=None, api_instance_url=None, verify=None, proxies=None, cert=None):
            self.api_key, self.source, self.api_instance_url = api_key, source, api_instance_url
            configuration = SimpleNamespace(host="https://api.scale.com", access_token=api_key)
            self.v2 = SimpleNamespace(api_client=SimpleNamespace(configuration=configuration))
            built.append(self)
    """
)


def test_scale_client_and_patch_scaleapi_point_v1_and_v2_at_the_server(pytester):
    pytester.makepyfile(scaleapi=STAND_IN)
    pytester.makepyfile(
        test_wiring="""
        import scaleapi

        def build_the_apps_client():
            # What code under test does: its own key, its own idea of the URL.
            return scaleapi.ScaleClient("live_real_secret", "my-app", "https://api.scale.com/v1")

        def test_scale_client(scale_client, labelmock):
            assert scale_client.api_key == labelmock.api_key
            assert scale_client.api_instance_url == labelmock.base_url
            assert scale_client.v2.api_client.configuration.host == labelmock.server_url

        def test_patch_scaleapi(patch_scaleapi, labelmock):
            client = build_the_apps_client()
            assert (client.api_key, client.source) == (labelmock.live_key, "my-app")
            assert client.api_instance_url == labelmock.base_url
            assert client.v2.api_client.configuration.host == labelmock.server_url

        def test_unpatched_afterwards():
            assert build_the_apps_client().api_instance_url == "https://api.scale.com/v1"
        """
    )
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=3)


RECORDS_ACCOUNT = """
import json, uuid

def test_one(labelmock, labelmock_server):
    record(labelmock, labelmock_server)

def test_two(labelmock, labelmock_server):
    record(labelmock, labelmock_server)

def record(labelmock, labelmock_server):
    created = labelmock.call("POST", "/v1/task/categorization",
                             {"attachment": "https://example.com/a.jpg", "categories": ["a", "b"]})
    read = labelmock.call("GET", f"/v1/task/{created['task_id']}")
    with open(f"server-{uuid.uuid4().hex}.json", "w") as out:
        json.dump({"url": labelmock_server.base_url, "account": labelmock.account, "status": read["status"]}, out)
"""


def test_a_running_server_is_used_by_url_and_left_running(pytester, monkeypatch):
    import urllib.request

    from pytest_labelmock.server import LabelmockServer

    with LabelmockServer() as shared:
        pytester.makepyfile(RECORDS_ACCOUNT)
        by_option = pytester.runpytest_subprocess(
            "--labelmock-url", shared.base_url, "--labelmock-completion", "immediate", "-p", "no:cacheprovider"
        )
        by_option.assert_outcomes(passed=2)
        monkeypatch.setenv("LABELMOCK_URL", shared.base_url + "/")
        pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=2)
        seen = servers_seen(pytester)
        assert {record["url"] for record in seen} == {shared.base_url}
        # Every test had an account of its own, on the one server.
        assert len({record["account"] for record in seen}) == 4
        # The option's completion mode became each test's tenant setting; without it the server's own (manual).
        assert sorted(record["status"] for record in seen) == ["completed", "completed", "pending", "pending"]
        with urllib.request.urlopen(f"{shared.base_url}/_mock/health") as res:
            assert res.status == 200


def test_a_url_with_server_flags_is_a_usage_error(pytester):
    pytester.makepyfile("def test_needs_it(labelmock):\n    pass\n")
    result = pytester.runpytest_subprocess(
        "--labelmock-url", "http://127.0.0.1:9", "--labelmock-args", "--latency 5", "-p", "no:cacheprovider"
    )
    result.stderr.fnmatch_lines(["*--labelmock-args sets up a server the plugin starts*"])


def test_an_unreachable_url_is_one_clear_line(pytester):
    pytester.makepyfile("def test_needs_it(labelmock):\n    pass\n")
    result = pytester.runpytest_subprocess("--labelmock-url", "http://127.0.0.1:9", "-p", "no:cacheprovider")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*the labelmock at http://127.0.0.1:9 does not answer /_mock/health*"])
