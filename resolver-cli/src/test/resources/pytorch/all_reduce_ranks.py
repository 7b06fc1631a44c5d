# One process of a PyTorch launch (PyTorchLaunchIT): joins the gloo group that torch.distributed's
# env:// rendezvous describes (MASTER_ADDR, MASTER_PORT, WORLD_SIZE, RANK, as exported by
# `eval "$(cluster-resolver resolve --format env)"`), sums the ranks of all processes with all_reduce
# and prints one line with what it was given and the sum.
import datetime
import os

import torch
import torch.distributed as dist

dist.init_process_group("gloo", timeout=datetime.timedelta(seconds=120))
total = torch.tensor([dist.get_rank()])
dist.all_reduce(total)
print(f"rank {dist.get_rank()} of {dist.get_world_size()}"
      f" at MASTER_ADDR={os.environ['MASTER_ADDR']} MASTER_PORT={os.environ['MASTER_PORT']}:"
      f" all_reduce of the ranks = {int(total.item())}", flush=True)
dist.destroy_process_group()
