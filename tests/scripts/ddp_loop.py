"""A torchrun-style training script: a process group from the environment, the model wrapped in
DistributedDataParallel, a DistributedSampler (tests of `ask -- torchrun --nproc-per-node=1 ddp_loop.py`).

--bug none | no_zero_grad
"""

import argparse
import os

import torch
import torch.distributed as dist
from torch import nn
from torch.nn.parallel import DistributedDataParallel
from torch.utils.data import DataLoader, TensorDataset
from torch.utils.data.distributed import DistributedSampler

parser = argparse.ArgumentParser()
parser.add_argument("--bug", default="none")
args = parser.parse_args()

dist.init_process_group("gloo")  # RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT come from torchrun
rank = int(os.environ["RANK"])
torch.manual_seed(0)
X = torch.randn(512, 10)
Y = (X[:, :3].sum(1) > 0).long()
data = TensorDataset(X, Y)
loader = DataLoader(data, batch_size=32, sampler=DistributedSampler(data, shuffle=True, seed=0))
model = DistributedDataParallel(nn.Sequential(nn.Linear(10, 32), nn.ReLU(), nn.Linear(32, 2)))
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
try:
    for epoch in range(3):
        loader.sampler.set_epoch(epoch)
        model.train()
        for x, y in loader:
            if args.bug != "no_zero_grad":
                opt.zero_grad()
            loss = nn.functional.cross_entropy(model(x), y)
            loss.backward()
            nn.utils.clip_grad_norm_(model.parameters(), 1.0)
            opt.step()
        if rank == 0:
            print(f"epoch {epoch} loss {loss.item():.3f}")
finally:
    dist.destroy_process_group()
