"""Explore under AppTest, for the page tests: start it from a link, read its charts and text."""

import json
from pathlib import Path

from streamlit.testing.v1 import AppTest

TIMEOUT = 120
APP = str(Path(__file__).resolve().parents[2] / "app.py")


def start(**params) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    for k, v in params.items():
        at.query_params[k] = v
    return at.run()


def charts(at: AppTest) -> list[dict]:
    return [json.loads(c.proto.spec) for c in at.get("plotly_chart")]


def heat(spec: dict) -> dict:
    return spec["data"][0]


def markdown(at: AppTest) -> str:
    return "\n".join(m.value for m in at.markdown)
