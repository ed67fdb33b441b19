#!/bin/bash
# Teaching point (lesson 7): a three-step pipeline submitted at once. `sbatch --parsable`
# prints only the job ID, which the next submission names in --dependency=afterok:ID; a step
# starts only when the one before it COMPLETED. Run it on the login node: bash pipeline.sh
set -e
prep=$(sbatch --parsable prepare.sh)
comp=$(sbatch --parsable --dependency=afterok:"$prep" compute.sh)
anal=$(sbatch --parsable --dependency=afterok:"$comp" analyse.sh)
echo "submitted prepare=$prep compute=$comp analyse=$anal"
