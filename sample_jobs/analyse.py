# Teaching point (lesson 13): this script needs NumPy, which the container image has; the
# login node's python3 alone does not. It reads numbers, one a line, and writes a summary.
import sys

import numpy

values = numpy.loadtxt(sys.argv[1])
with open(sys.argv[2], "w") as out:
    out.write(f"count {values.size}\nmean {values.mean():.2f}\nstd {values.std():.2f}\n")
print(f"numpy {numpy.__version__}: mean of {values.size} values is {values.mean():.2f}")
