# The OpenResearch API (openresearch serve) for docker-compose.yml. Needs an API key: it listens beyond loopback.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY openresearch ./openresearch
RUN pip install --no-cache-dir .
ENV OPENRESEARCH_DATA_DIR=/data HF_HUB_OFFLINE=1
VOLUME /data
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=8 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/readyz').status == 200 else 1)"
CMD ["openresearch", "serve", "--host", "0.0.0.0", "--port", "8000"]
