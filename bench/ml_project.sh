#!/usr/bin/env bash
# Issue #15 figures, as medians:
#   1. one training epoch of the course project (sample_jobs/cnn_digits/train.py, 1 CPU) in a
#      job against the same command on the bare host, bound to one CPU with taskset;
#   2. `pip install --no-index torch numpy` into a fresh venv in $SLURM_TMPDIR, in a job;
#   3. what the ML wheelhouse and module stacks add to the build.
# Usage: [MC_UP_ARGS="--limits rlimit"] bench/ml_project.sh [BUILD_DIR] [EPOCHS] [PIP_RUNS]
# (default build/release, 12 epochs: the first, which warms up, is left out; 3 pip runs)
set -euo pipefail
build=${1:-build/release}
epochs=${2:-12}
pipruns=${3:-3}
bin=$(cd "$build/bin" && pwd)
software=$(cd "$bin/../share/minicluster/software" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)/sample_jobs/cnn_digits
data=/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }
epoch_seconds() { grep -o 'accuracy [0-9.]* [0-9.]* s$' "$1" | awk '{print $3}' | tail -n +2; }

# The bare host: Debian's python3 sees the same packages the modules link.
cp "$data" "$dir/digits.csv.gz"
SLURM_CPUS_PER_TASK=1 taskset -c 0 /usr/bin/python3 "$src/train.py" --data "$dir/digits.csv.gz" \
    --checkpoint "$dir/host.pt" --epochs "$epochs" >"$dir/host.out"
host=$(epoch_seconds "$dir/host.out" | median)

"$bin/minicluster" --dir "$dir/c" ${MC_UP_ARGS:-} up >/dev/null
home=$dir/c/home/alice
"$bin/minicluster" --dir "$dir/c" shell -c true
mkdir -p "$home/cnn_digits"
cp "$src"/* "$home/cnn_digits/"
cat >"$home/cnn_digits/bench.sh" <<EOF
#!/bin/bash
#SBATCH -c1 --mem=2000M --time=30 --output=bench-%j.out
module load python scipy-stack pytorch
cp $data \$SLURM_TMPDIR/
python train.py --data \$SLURM_TMPDIR/digits.csv.gz --checkpoint \$SLURM_TMPDIR/c.pt --epochs $epochs
EOF
cat >"$home/cnn_digits/pip.sh" <<'EOF'
#!/bin/bash
#SBATCH -c1 --mem=4000M --time=30 --output=pip-%j.out
module load python
virtualenv --no-download $SLURM_TMPDIR/env
source $SLURM_TMPDIR/env/bin/activate
t0=$EPOCHREALTIME
pip install --no-index torch numpy >/dev/null
t1=$EPOCHREALTIME
python -c 'import torch, numpy' && echo "PIP $t0 $t1"
EOF
wait_job() {
    while "$bin/minicluster" --dir "$dir/c" shell -c "squeue -h -j $1 -o %T" 2>/dev/null | grep -q .; do
        sleep 1
    done
}
id=$("$bin/minicluster" --dir "$dir/c" shell -c "cd cnn_digits && sbatch --parsable bench.sh")
wait_job "$id"
job=$(epoch_seconds "$home/cnn_digits/bench-$id.out" | median)
for _ in $(seq "$pipruns"); do
    id=$("$bin/minicluster" --dir "$dir/c" shell -c "cd cnn_digits && sbatch --parsable pip.sh")
    wait_job "$id"
    awk '/^PIP / {printf "%.3f\n", $3 - $2}' "$home/cnn_digits/pip-$id.out"
done >"$dir/pip.s"

wheels=$(awk '!/^#/ && NF == 4 {print $4}' "$software/wheelhouse/debian-wheels.txt")
size=$(cd "$software/wheelhouse" && du -cb $wheels | tail -n 1 | cut -f1)
stacks=$(du -sb "$software/python-stacks" | cut -f1)
echo "one epoch (1 CPU), median of epochs 2-$epochs: host ${host} s, job ${job} s," \
    "sandbox cost $(awk -v h="$host" -v j="$job" 'BEGIN {printf "%+.1f %%", (j - h) / h * 100}')"
echo "pip install --no-index torch numpy in \$SLURM_TMPDIR: $(median <"$dir/pip.s") s (median of $pipruns)"
echo "wheelhouse: $(echo "$wheels" | wc -l) wheels from Debian's packages," \
    "$(awk -v b="$size" 'BEGIN {printf "%.0f MB", b / 1e6}'); module stacks (links) $stacks bytes"
