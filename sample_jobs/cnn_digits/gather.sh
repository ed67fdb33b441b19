#!/bin/bash
# Teaching point (lesson 11): the last job of a pipeline. Submitted with
# --dependency=afterok:<the sweep's job id>, it starts only when every task of the array
# ended COMPLETED, and gathers their results into one table.
#SBATCH --job-name=cnn-gather
#SBATCH --output=%x-%j.out
#SBATCH --time=00:05:00
#SBATCH --mem=200M

module load python
python - <<'PY'
import glob, json
rows = [json.load(open(p)) for p in sorted(glob.glob("results/lr-*.json"))]
rows.sort(key=lambda r: -r["accuracy"])
print("%-8s %-6s %s" % ("lr", "epochs", "accuracy"))
for r in rows:
    print("%-8g %-6d %.3f" % (r["lr"], r["epochs"], r["accuracy"]))
if rows:
    print("best: lr %g (accuracy %.3f)" % (rows[0]["lr"], rows[0]["accuracy"]))
PY
