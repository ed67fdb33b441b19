#!/bin/bash
# Teaching point (lesson 6): software on a cluster. Modules put the site's builds on PATH;
# the virtual environment is built inside the job in $SLURM_TMPDIR (fast, and gone after);
# pip installs with --no-index from the site's wheelhouse, never from the internet.
#SBATCH --job-name=venv
#SBATCH --output=%x-%j.out
#SBATCH --time=00:10:00
#SBATCH --mem=500M

if ! command -v module >/dev/null 2>&1; then
    echo "module is not available on this cluster yet"
    exit 0
fi
module load python
python3 -m venv "$SLURM_TMPDIR/env"
source "$SLURM_TMPDIR/env/bin/activate"
pip install --no-index --quiet numpy 2>&1 || echo "no numpy wheel in the wheelhouse"
python -c 'import sys; print("python", sys.version.split()[0], "in", sys.prefix)'
python -c 'import numpy; print("numpy", numpy.__version__, "from", numpy.__path__[0])'
