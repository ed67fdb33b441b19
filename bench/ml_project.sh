#!/usr/bin/env bash
# Issue #15 figures, as medians:
#   1. one training epoch of the course project (sample_jobs/cnn_digits/train.py, 1 CPU) in a
#      job against the same command on the bare host, bound to one CPU with taskset; ROUNDS
#      rounds alternate host and job so that a busy machine weighs on both alike;
#   2. `pip install --no-index torch numpy` into a fresh venv in $SLURM_TMPDIR, in a job: wall
#      time, and CPU time (user + system of pip and its children, which load does not inflate);
#   3. what the ML wheelhouse and module stacks add to the build.
# Usage: [MC_UP_ARGS="--limits rlimit"] bench/ml_project.sh [BUILD_DIR] [EPOCHS] [PIP_RUNS] [ROUNDS]
# (default build/release, 12 epochs a run, the first, which warms up, left out; 3 pip runs;
# 3 rounds)
set -euo pipefail
build=${1:-build/release}
epochs=${2:-12}
pipruns=${3:-3}
rounds=${4:-3}
bin=$(cd "$build/bin" && pwd)
software=$(cd "$bin/../share/minicluster/software" && pwd)
src=$(cd "$(dirname "$0")/.." && pwd)/sample_jobs/cnn_digits
data=/usr/lib/python3/dist-packages/sklearn/datasets/data/digits.csv.gz
dir=$(mktemp -d /tmp/mc-bench-XXXXXX)
trap '"$bin/minicluster" --dir "$dir/c" down >/dev/null 2>&1 || true; rm -rf "$dir"' EXIT
median() { sort -n | awk '{a[NR]=$1} END {m=(NR%2)?a[(NR+1)/2]:(a[NR/2]+a[NR/2+1])/2; printf "%.3f", m}'; }
epoch_seconds() { grep -o 'accuracy [0-9.]* [0-9.]* s$' "$1" | awk '{print $3}' | tail -n +2; }

cp "$data" "$dir/digits.csv.gz"
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
# The CPU time of pip and its children: the shell's `times` (children's user and system
# time) before and after.
times >$SLURM_TMPDIR/t0
t0=$EPOCHREALTIME
pip install --no-index torch numpy >/dev/null
t1=$EPOCHREALTIME
times >$SLURM_TMPDIR/t1
cpu=$(for f in t0 t1; do awk 'NR == 2 {split($1, u, /[ms]/); split($2, s, /[ms]/); print u[1] * 60 + u[2] + s[1] * 60 + s[2]}' $SLURM_TMPDIR/$f; done | awk 'NR == 1 {a = $1} NR == 2 {printf "%.2f", $1 - a}')
python -c 'import torch, numpy' && echo "PIP $t0 $t1 $cpu"
EOF
# As root each user is a real uid of its own: what the bench wrote into alice's home is hers.
if [ "$(id -u)" = 0 ]; then
    chown -R --reference="$home" "$home/cnn_digits"
fi
wait_job() {
    while "$bin/minicluster" --dir "$dir/c" shell -c "squeue -h -j $1 -o %T" 2>/dev/null | grep -q .; do
        sleep 1
    done
}
for round in $(seq "$rounds"); do
    # The bare host: Debian's python3 sees the same packages the modules link.
    SLURM_CPUS_PER_TASK=1 taskset -c 0 /usr/bin/python3 "$src/train.py" \
        --data "$dir/digits.csv.gz" --checkpoint "$dir/host-$round.pt" --epochs "$epochs" \
        >"$dir/host-$round.out"
    epoch_seconds "$dir/host-$round.out" >>"$dir/host.s"
    id=$("$bin/minicluster" --dir "$dir/c" shell -c "cd cnn_digits && sbatch --parsable bench.sh")
    wait_job "$id"
    epoch_seconds "$home/cnn_digits/bench-$id.out" >>"$dir/job.s"
done
host=$(median <"$dir/host.s")
job=$(median <"$dir/job.s")
for _ in $(seq "$pipruns"); do
    id=$("$bin/minicluster" --dir "$dir/c" shell -c "cd cnn_digits && sbatch --parsable pip.sh")
    wait_job "$id"
    awk '/^PIP / {printf "%.3f %s\n", $3 - $2, $4}' "$home/cnn_digits/pip-$id.out"
done >"$dir/pip.s"

wheels=$(awk '!/^#/ && NF == 4 {print $4}' "$software/wheelhouse/debian-wheels.txt")
size=$(cd "$software/wheelhouse" && du -cb $wheels | tail -n 1 | cut -f1)
stacks=$(du -sb "$software/python-stacks" | cut -f1)
echo "one epoch (1 CPU), median of epochs 2-$epochs of $rounds runs each: host ${host} s, job ${job} s," \
    "sandbox cost $(awk -v h="$host" -v j="$job" 'BEGIN {printf "%+.1f %%", (j - h) / h * 100}')"
echo "pip install --no-index torch numpy in \$SLURM_TMPDIR: $(cut -d' ' -f1 "$dir/pip.s" | median) s" \
    "wall, $(cut -d' ' -f2 "$dir/pip.s" | median) s CPU (medians of $pipruns); load: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "wheelhouse: $(echo "$wheels" | wc -l) wheels from Debian's packages," \
    "$(awk -v b="$size" 'BEGIN {printf "%.0f MB", b / 1e6}'); module stacks (links) $stacks bytes"
