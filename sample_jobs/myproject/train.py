# Teaching point (lessons 1 and 8): the code on your laptop that you copy to the cluster with
# rsync and then run in a job, never on the login node. A toy "training": a few passes of a
# linear fit by gradient descent, with a checkpoint written after each pass.
import json
import os
import sys

out = sys.argv[1] if len(sys.argv) > 1 else "."
xs = [i / 10 for i in range(100)]
ys = [3 * x + 1 for x in xs]
w, b = 0.0, 0.0
for epoch in range(1, 6):
    for _ in range(200):
        gw = sum((w * x + b - y) * x for x, y in zip(xs, ys)) / len(xs)
        gb = sum((w * x + b - y) for x, y in zip(xs, ys)) / len(xs)
        w, b = w - 0.01 * gw, b - 0.01 * gb
    with open(os.path.join(out, "checkpoint.json"), "w") as f:
        json.dump({"epoch": epoch, "w": w, "b": b}, f)
    print(f"epoch {epoch}: w={w:.3f} b={b:.3f}", flush=True)
