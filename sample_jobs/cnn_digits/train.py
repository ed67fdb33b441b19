"""A small convolutional network that learns to read handwritten digits (8x8 pixels).

Teaching point (lesson 11): a training script written for a cluster.

The course project, end to end on a cluster:
- the data (scikit-learn's digits, which ships with it offline) is read from the node's fast
  local disk, where the job script copied it ($SLURM_TMPDIR);
- the DataLoader gets one worker process per CPU the job asked for ($SLURM_CPUS_PER_TASK);
- a checkpoint is written after every epoch, and a run that finds one resumes from it, so a job
  that was requeued, preempted or ran out of time continues where it stopped;
- on SIGUSR1 (sbatch --signal=USR1@60: a minute before the time limit) it finishes the epoch,
  saves, and asks Slurm to requeue the job;
- the device is chosen, not assumed: cuda when there is a GPU, else the CPU.

    python train.py --data $SLURM_TMPDIR/digits.csv.gz --checkpoint ckpt.pt --epochs 10
"""
import argparse
import json
import os
import signal
import subprocess
import time

import numpy as np
import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

warned = False


def on_usr1(signum, frame):
    global warned
    warned = True
    print("SIGUSR1: the job ends soon; saving after this epoch", flush=True)


class DigitNet(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.features = nn.Sequential(
            nn.Conv2d(1, width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(width, 2 * width, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2))
        self.classify = nn.Sequential(nn.Flatten(), nn.Linear(2 * width * 2 * 2, 64), nn.ReLU(),
                                      nn.Linear(64, 10))

    def forward(self, x):
        return self.classify(self.features(x))


def load(path, seed):
    table = np.loadtxt(path, delimiter=",", dtype=np.float32)
    images = torch.from_numpy(table[:, :-1] / 16.0).reshape(-1, 1, 8, 8)
    labels = torch.from_numpy(table[:, -1].astype(np.int64))
    order = torch.randperm(len(labels), generator=torch.Generator().manual_seed(seed))
    cut = int(0.8 * len(labels))
    train, test = order[:cut], order[cut:]
    return TensorDataset(images[train], labels[train]), TensorDataset(images[test], labels[test])


def accuracy(model, loader, device):
    model.eval()
    right = total = 0
    with torch.no_grad():
        for x, y in loader:
            right += (model(x.to(device)).argmax(1) == y.to(device)).sum().item()
            total += len(y)
    return right / total


def save(path, state):
    partial = path + ".part"
    torch.save(state, partial)
    os.replace(partial, path)  # a job killed while saving keeps the previous checkpoint


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", required=True, help="digits.csv.gz (on $SLURM_TMPDIR)")
    parser.add_argument("--checkpoint", required=True)
    parser.add_argument("--epochs", type=int, default=10)
    parser.add_argument("--lr", type=float, default=0.05)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--width", type=int, default=16)
    parser.add_argument("--results", help="a JSON file for the final accuracy")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    signal.signal(signal.SIGUSR1, on_usr1)

    cpus = int(os.environ.get("SLURM_CPUS_PER_TASK", "1"))
    torch.set_num_threads(cpus)
    torch.manual_seed(args.seed)
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    train_set, test_set = load(args.data, args.seed)
    # The job's CPUs: one trains, the others load batches (with one CPU, the main process loads).
    workers = cpus - 1
    train = DataLoader(train_set, batch_size=args.batch_size, shuffle=True, num_workers=workers,
                       persistent_workers=workers > 0)
    test = DataLoader(test_set, batch_size=256)
    model = DigitNet(args.width).to(device)
    optimizer = torch.optim.SGD(model.parameters(), lr=args.lr, momentum=0.9)
    start, history = 1, []
    if os.path.exists(args.checkpoint):
        state = torch.load(args.checkpoint, map_location=device)
        model.load_state_dict(state["model"])
        optimizer.load_state_dict(state["optimizer"])
        start, history = state["epoch"] + 1, state["history"]
        torch.set_rng_state(state["rng"])
        print("resumed from %s at epoch %d" % (args.checkpoint, state["epoch"]), flush=True)
    print("device %s, %d CPUs, %d loader workers, %d training images"
          % (device, cpus, workers, len(train_set)), flush=True)

    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(start, args.epochs + 1):
        began = time.perf_counter()
        model.train()
        for x, y in train:
            optimizer.zero_grad()
            loss = loss_fn(model(x.to(device)), y.to(device))
            loss.backward()
            optimizer.step()
        acc = accuracy(model, test, device)
        seconds = time.perf_counter() - began
        history.append({"epoch": epoch, "loss": loss.item(), "accuracy": acc, "seconds": seconds})
        save(args.checkpoint, {"epoch": epoch, "model": model.state_dict(),
                               "optimizer": optimizer.state_dict(), "history": history,
                               "rng": torch.get_rng_state()})
        print("epoch %d/%d loss %.4f accuracy %.3f %.3f s" % (epoch, args.epochs, loss.item(), acc,
                                                             seconds), flush=True)
        if warned and epoch < args.epochs:
            job = os.environ.get("SLURM_JOB_ID")
            if job:
                print("checkpoint saved at epoch %d: requeueing job %s" % (epoch, job), flush=True)
                subprocess.run(["scontrol", "requeue", job], check=False)
            return
    final = history[-1]["accuracy"] if history else 0.0
    print("done: accuracy %.3f" % final, flush=True)
    if args.results:
        with open(args.results, "w") as f:
            json.dump({"lr": args.lr, "width": args.width, "batch_size": args.batch_size,
                       "epochs": args.epochs, "accuracy": final}, f)


if __name__ == "__main__":
    main()
