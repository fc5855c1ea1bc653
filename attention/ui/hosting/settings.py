"""Deployment settings, read from the environment (or Streamlit secrets on a hosted demo).

ATTENTION_HOSTED=1            hosted mode: no model folders from arbitrary paths, shorter inputs.
ATTENTION_CACHE_MB=1024       memory for what the app keeps between clicks (models, traces, translations,
                              overviews), shared by every session (256 when hosted; at most 64 entries).
ATTENTION_MAX_TRACES=0        traces (and translations, overviews, snapshot traces) computed at once by
                              this process; past it a request waits its turn in order, and the page says
                              how many people are ahead (attention/ui/hosting/admission.py). 0: no limit
                              (2 when hosted: one per core of the smallest hosted tier).
ATTENTION_RSS_BUDGET_MB=0     resident memory of this process above which the cache sheds what it keeps
                              (all but the models) before the next computation, so a replica under its
                              host's memory limit sheds, not dies. 0: never (2535 when hosted, derived below: the
                              three models loaded, a class of 30 writing, the head views' cache).
ATTENTION_SESSIONS_MB=2048    what sessions hold between clicks (the Write page's Writings), shared by every
                              session; past it the least recently used are emptied and read again from their
                              link when their person comes back (attention/ui/hosting/held.py). Hosted: see below.
ATTENTION_HEAD_CACHE_MB=512  what long sites compute when asked (a head's S or A, a site's Z at up to 8,192
                              tokens), shared by every site (attention/head_cache.py reads it; a notebook too).
ATTENTION_VIEW_CACHE_MB=128   what the head views send (payload texts, panels' data, the long view's pooled
                              pictures and tiles), shared by every session (ui/hosting/view_cache.py).
ATTENTION_WRITE_AHEAD=1       Write page: once a word is drawn, the next is read by the model in the
                              background, so "Next word" finds it read (0: read at the click). It only
                              takes a free turn of the admission queue: it never makes anyone wait.
"""

from __future__ import annotations

import os

from attention.params.text_input import MAX_CHARS

HOSTED_MAX_CHARS = 2_000
CACHE_MB = 1_024  # a fully recomputed 512-token MiniLM trace is about 255 MB, the model 91 MB
HOSTED_MAX_TRACES = 2
# The one measured figure a replica's memory is derived from: MiniLM, the translator and SmolLM2 loaded in
# one hosted replica, 1,143 MiB (`python -m bench load --write`). Everything else is added to it, here only:
# the sessions' Writings, one computation's temporaries and the head views' cache (kept, never shed); the RSS
# budget is their sum (2,535 MiB),
# the pod's request the budget and its limit the budget x LIMIT_MARGIN (a computation's peak above the budget
# is waited out, never a kill). deploy/k8s/deployment.yaml says the same (`python -m attention.ui.hosting.settings`
# prints it; tests/deploy/test_deploy_files.py compares).
THREE_MODELS_RSS_MB = 1_143
# A class: 30 Writings at the hosted prompt cap, 256 + 12 tokens, ~40 MiB each (Writing.nbytes: q 21, K and V 14,
# logits 2.4; lm/written.HOSTED keeps no weights and no z). Held together, so no one's is read again per word.
CLASS_SESSIONS = 30
HOSTED_WRITING_MB = 40
HOSTED_SESSIONS_MB = CLASS_SESSIONS * HOSTED_WRITING_MB
COMPUTE_ROOM_MB = 64  # one computation's temporaries above what is kept
VIEW_CACHE_MB = 128  # a head view's payload is ~1 MB at 512 tokens, a long view's first message ~0.4 MB
# 30 writers at 12 words filled 108 MiB of it (`python -m bench class --browsers 30 --words 12 --memory`)
HOSTED_RSS_BUDGET_MB = THREE_MODELS_RSS_MB + HOSTED_SESSIONS_MB + COMPUTE_ROOM_MB + VIEW_CACHE_MB
LIMIT_MARGIN = 1.25
SESSIONS_MB = 2_048
HOSTED_CACHE_MB = 256  # a hosted demo may have 690 MB in all: 91 MB of model + the old 128 MB for traces + room


def hosted() -> bool:
    value = os.environ.get("ATTENTION_HOSTED", "") or _secret("ATTENTION_HOSTED")  # a Cloud secret works too
    return value.strip().lower() in ("1", "true", "yes", "on")


def _secret(name: str) -> str:
    """A Streamlit secret, or "" when there is no secrets file (or one that does not parse)."""
    import streamlit as st
    from streamlit.errors import StreamlitAPIException

    try:
        return str(st.secrets.get(name, ""))
    except (FileNotFoundError, StreamlitAPIException):  # StreamlitSecretNotFoundError is both
        return ""


def max_chars() -> int:
    return HOSTED_MAX_CHARS if hosted() else MAX_CHARS


def max_traces() -> int:
    """How many traces this process computes at once (ATTENTION_MAX_TRACES; 0: no limit)."""
    return _int_env("ATTENTION_MAX_TRACES", HOSTED_MAX_TRACES if hosted() else 0)


def rss_budget_bytes() -> int:
    """Resident memory above which the cache is shed (ATTENTION_RSS_BUDGET_MB; 0: never)."""
    return _int_env("ATTENTION_RSS_BUDGET_MB", HOSTED_RSS_BUDGET_MB if hosted() else 0) * 2**20


def sessions_bytes() -> int:
    """How much the sessions' Writings may hold together (ATTENTION_SESSIONS_MB; 0: no limit)."""
    return _int_env("ATTENTION_SESSIONS_MB", HOSTED_SESSIONS_MB if hosted() else SESSIONS_MB) * 2**20


def k8s_memory() -> dict[str, str]:
    """The pod's memory request and limit, and the env of its budgets, derived from the one figure above."""
    limit = -(-int(HOSTED_RSS_BUDGET_MB * LIMIT_MARGIN) // 10) * 10  # rounded up to 10 Mi
    return {"request": f"{HOSTED_RSS_BUDGET_MB}Mi", "limit": f"{limit}Mi",
            "ATTENTION_RSS_BUDGET_MB": str(HOSTED_RSS_BUDGET_MB), "ATTENTION_SESSIONS_MB": str(HOSTED_SESSIONS_MB)}


def head_cache_bytes() -> int:
    """What long sites' heads may hold (ATTENTION_HEAD_CACHE_MB, read by attention/head_cache.py itself: the
    contract cannot import the app's settings, so the name and default are declared here and there alike)."""
    from attention import head_cache

    return head_cache.budget()


def view_cache_bytes() -> int:
    """What the head views' payloads may hold together (ATTENTION_VIEW_CACHE_MB)."""
    return _int_env("ATTENTION_VIEW_CACHE_MB", VIEW_CACHE_MB) * 2**20


def budgets() -> dict[str, int]:
    """Every cache's budget in bytes, as /metrics reports them beside what each holds."""
    return {"cache": cache_bytes(), "head_cache": head_cache_bytes(), "view_cache": view_cache_bytes(),
            "sessions": sessions_bytes(), "rss": rss_budget_bytes()}


def write_ahead() -> bool:
    """Whether the Write page reads the next word in the background (ATTENTION_WRITE_AHEAD, default on)."""
    return _int_env("ATTENTION_WRITE_AHEAD", 1) > 0


def _int_env(name: str, default: int) -> int:
    try:
        return max(int(os.environ.get(name, default)), 0)
    except ValueError:
        return default


def cache_bytes() -> int:
    """How much memory the app's one cache may hold (ATTENTION_CACHE_MB)."""
    return _int_env("ATTENTION_CACHE_MB", HOSTED_CACHE_MB if hosted() else CACHE_MB) * 2**20


if __name__ == "__main__":  # what deploy/k8s/deployment.yaml must say
    for name, value in k8s_memory().items():
        print(f"{name}: {value}")
