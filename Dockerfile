# The Majlis bots in one image: `docker build -t majlis .` then see compose.yaml.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 \
    MAJLIS_DATA_DIR=/data
WORKDIR /app

# build first what changes least: the dependencies, from pyproject.toml alone
COPY pyproject.toml README.md ./
RUN mkdir -p engine ai bot storage locales \
    && touch engine/__init__.py ai/__init__.py bot/__init__.py storage/__init__.py locales/__init__.py \
    && pip install --upgrade pip \
    && pip install '.[ai]' \
    && pip uninstall -y majlis

COPY engine engine
COPY ai ai
COPY storage storage
COPY bot bot
COPY locales locales
RUN pip install --no-deps '.[ai]' \
    && useradd --system --uid 10001 --home-dir /data --create-home majlis

# numeric, so that a host or an orchestrator that checks for a non-root user can resolve it
USER 10001
VOLUME /data
# MAJLIS_TELEGRAM_TOKEN / MAJLIS_DISCORD_TOKEN and MAJLIS_DB come from the environment;
# with MAJLIS_METRICS_PORT set, /healthz is the health check (see compose.yaml)
ENTRYPOINT ["majlis"]
CMD ["run"]
