# The OpenResearch API (openresearch serve) for docker-compose.yml. Needs an API key: it listens beyond loopback.
FROM python:3.11-slim
WORKDIR /app
COPY pyproject.toml README.md ./
COPY openresearch ./openresearch
RUN pip install --no-cache-dir .
ENV OPENRESEARCH_DATA_DIR=/data HF_HUB_OFFLINE=1
VOLUME /data
EXPOSE 8000
# /readyz needs the API key like every route but /healthz
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=8 \
  CMD python -c "import os,sys,urllib.request as u; r=u.Request('http://127.0.0.1:8000/readyz', headers={'Authorization': 'Bearer '+os.environ.get('OPENRESEARCH_API_KEY','')}); sys.exit(0 if u.urlopen(r).status == 200 else 1)"
CMD ["openresearch", "serve", "--host", "0.0.0.0", "--port", "8000"]
