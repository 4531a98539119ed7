# riskevo: every target builds the virtual environment from pyproject.toml when it is missing.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
RUN ?=
GENERATIONS ?=
GEN ?=
OUT ?=
BOT ?=
GAMES ?=
N_JOBS ?=
PORT ?=

.DEFAULT_GOAL := help
.PHONY: help venv test test-slow measure lint bench bench-env docs evolve play plot report export \
	gauntlet clean need-run

help:  ## list the targets
	@grep -E '^[a-z-]+:.*##' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 14

# The set-up also compiles what the first `make evolve` and the web page's first game use into
# numba's cache (arena/warmup.py, two processes at a time), so neither waits for it; what it
# misses is compiled where it is first used.
$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,dask,env]'
	$(PY) -m arena.warmup || true
	@touch $(STAMP)

venv: $(STAMP)  ## create .venv, install riskevo (dev tools, dask, env) and compile the game ahead

lint: $(STAMP)  ## ruff and mypy
	$(VENV)/bin/ruff check game features evolve arena tests
	$(VENV)/bin/mypy

# Two workers, a test file each at a time (module fixtures stay shared); the numba kernels are
# compiled once first, else each worker compiles the same ones.
# One BLAS thread a test worker: two workers' threads on two cores only fight.
# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set (into the ignored __pycache__
# folders numba's cache uses already), else every worker and subprocess compiles, and pytest
# rewrites, every test module again.
TEST_ENV := PYTHONDONTWRITEBYTECODE=
PYTEST := $(TEST_ENV) $(PY) -m pytest
test: lint  ## ruff, mypy and the fast test suite
	$(TEST_ENV) $(PY) tests/helpers/warmup.py
	OPENBLAS_NUM_THREADS=1 $(PYTEST) -n 2 --dist loadfile

test-slow: $(STAMP)  ## the statistical and long tests
	$(PYTEST) -m slow

measure: $(STAMP)  ## the measured strength bars: bots' win rates against others (minutes)
	$(PYTEST) -m measure

bench: $(STAMP)  ## games/s, generation wall time, memory; ratios vs the last bench; cold compile
	$(PY) -m evolve bench --memory-generations $(or $(MEMORY_GENERATIONS),100)
	$(PY) -m arena.warmup --cold

bench-env: $(STAMP)  ## env steps/s (random masked actions) and overhead vs the game loop
	$(PY) -m evolve.bench.benchenv $(if $(GAMES),--games $(GAMES))

docs: $(STAMP)  ## rewrite the generated tables of docs/genome.md and docs/evolution.md
	$(PY) -m evolve.report.docgen

evolve: $(STAMP)  ## start a run, or resume one: make evolve [RUN=name] [GENERATIONS=n]
	$(PY) -m evolve run $(if $(RUN),--name $(RUN)) $(if $(GENERATIONS),--generations $(GENERATIONS)) $(if $(N_JOBS),--n-jobs $(N_JOBS))

play: $(STAMP)  ## play in the browser against the newest champion: make play [BOT="a b"] [PORT=8000]
	$(PY) -m arena web $(BOT) $(if $(PORT),--port $(PORT))

need-run:
	@test -n "$(RUN)" || { echo "error: RUN=name is required (a folder in runs/)"; exit 2; }
	@test -f "runs/$(RUN)/config.toml" || { \
		r=$$(cd runs 2>/dev/null && ls -dt */config.toml 2>/dev/null | head -8 | sed 's,/.*,,'); \
		echo "error: RUN=$(RUN): no run in runs/$(RUN) (runs there: $$(echo $${r:-none}))"; exit 2; }

plot: $(STAMP) need-run  ## refresh a run's plots: make plot RUN=name
	$(PY) -m evolve plot runs/$(RUN)

report: $(STAMP) need-run  ## write runs/RUN/report.html (with the champion's behaviour)
	$(PY) -m evolve diagnose runs/$(RUN)/champion.json --out runs/$(RUN)/diagnose
	$(PY) -m evolve report runs/$(RUN)

export: $(STAMP) need-run  ## champion as a bot file: make export RUN=name [GEN=n [INDEX=i]] [OUT=file]
	$(PY) -m evolve export runs/$(RUN) $(if $(GEN),--gen $(GEN)) $(if $(INDEX),--index $(INDEX)) --out $(or $(OUT),runs/$(RUN)/champion-bot.json)

gauntlet: $(STAMP)  ## strength table: make gauntlet BOT=file.json [GAMES=n] (or RUN=name: its champion)
	@test -n "$(BOT)$(RUN)" || { echo "error: BOT=file.json or RUN=name is required"; exit 2; }
	$(PY) -m evolve gauntlet $(or $(BOT),runs/$(RUN)/champion.json) $(if $(GAMES),--games $(GAMES)) \
		$(if $(BOT),,--out runs/gauntlet/$(RUN))

clean:  ## remove caches (not runs, not .venv)
	rm -rf .pytest_cache .mypy_cache .ruff_cache
	find . -name __pycache__ -type d -prune -not -path './.venv/*' -exec rm -rf {} +
