#!/bin/bash
# One prepared run on a lent GPU (README, "GPU"): the GPU benchmark rows, then the claims on CuPy
# continuing reports/gpu/results.json (--resume: fresh records are kept), the NumPy run of the same
# profile and the GPU tests beside them. Everything lands in $OUT (at most 8 files come back).
#   PROFILE (quick), CLAIMS_S (300), TESTS_S (330), BENCH_S (110), GPU_WORKERS (9), CPU_WORKERS (3)
# Missing packages (dask, latex2mathml) travel as wheels in .whl/ (the device tool's README).
set -u
T0=$(date +%s)
log() { echo "[$(($(date +%s) - T0)) s] $*" | tee -a "$OUT/run.log"; }
W=/tmp/device-session
mkdir -p "$W/cupy"
if ls .whl/*.whl >/dev/null 2>&1; then
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --target /tmp/site .whl/*.whl
    export PYTHONPATH=/tmp/site
fi
export PYTHONPATH="${PYTHONPATH:+$PYTHONPATH:}$PWD" PYTHONUNBUFFERED=1 COLUMNS=160 NO_COLOR=1
PLUGIN=(-p verify.plugin)  # the claims' pytest plugin, unless an install registered it already
python3 -c "import importlib.metadata as m, sys; sys.exit(any(e.name == 'relu_verify' for e in m.entry_points(group='pytest11')))" || PLUGIN=()
VERIFY=(python3 -c "import sys; from verify.cli import main; sys.argv[0] = 'verify'; main()")
{ nvidia-smi; nproc; python3 -c "import cupy, numpy; print('cupy', cupy.__version__, 'numpy', numpy.__version__)"; } \
    >"$OUT/env.txt" 2>&1
log "setup done"
timeout -s INT -k 10 "${BENCH_S:-110}" python3 -m benchmarks --profile "${PROFILE:-quick}" --only gpu \
    --out "$W/bench/benchmarks.json" >"$OUT/bench.log" 2>&1
log "benchmarks rc=$?"
tar czf "$OUT/bench.tgz" -C "$W" bench 2>/dev/null
cp reports/gpu/results.json "$W/cupy/" 2>/dev/null
P=${PROFILE:-quick}
(timeout -s INT -k 60 "${CLAIMS_S:-300}" "${VERIFY[@]}" run --profile "$P" --backend cupy --resume \
    --workers "${GPU_WORKERS:-9}" --out "$W/cupy" >"$W/cupy.log" 2>&1; echo "rc=$?" >>"$W/cupy.log") &
(timeout -s INT -k 60 "${CLAIMS_S:-300}" "${VERIFY[@]}" run --profile "$P" --backend numpy \
    --workers "${CPU_WORKERS:-3}" --out "$W/numpy" >"$W/numpy.log" 2>&1; echo "rc=$?" >>"$W/numpy.log") &
(timeout -s INT -k 20 "${TESTS_S:-330}" python3 -m pytest "${PLUGIN[@]}" -m gpu -n 3 -v -p no:cacheprovider \
    -o addopts="" tests >"$OUT/gpu-tests.log" 2>&1; echo "rc=$?" >>"$OUT/gpu-tests.log") &
wait
log "claims and tests done"
cp "$W/cupy/results.json" "$OUT/cupy-results.json"
cp "$W/numpy/results.json" "$OUT/numpy-results.json" 2>/dev/null
tail -n 3 "$W/cupy.log" "$W/numpy.log" >>"$OUT/run.log"
