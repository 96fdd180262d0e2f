"""torch.autograd.detect_anomaly, its docstring's example: an error raised in a custom
backward, without and with anomaly mode.

Source: https://pytorch.org/docs/2.13/autograd.html#torch.autograd.detect_anomaly
        (pytorch/pytorch, torch/autograd/anomaly_mode.py)
Adapted: the errors are caught and their first line printed (anomaly mode's warning goes
to stderr with the forward traceback).
"""
import torch
from torch import autograd


class MyFunc(autograd.Function):
    @staticmethod
    def forward(ctx, inp):
        return inp.clone()

    @staticmethod
    def backward(ctx, gO):
        # Error during the backward pass
        raise RuntimeError("Some error in backward")
        return gO.clone()


def run_fn(a):
    out = MyFunc.apply(a)
    return out.sum()


inp = torch.rand(10, 10, requires_grad=True)
out = run_fn(inp)
try:
    out.backward()
except RuntimeError as error:
    print("RuntimeError:", str(error).splitlines()[0])

with autograd.detect_anomaly():
    inp = torch.rand(10, 10, requires_grad=True)
    out = run_fn(inp)
    try:
        out.backward()
    except RuntimeError as error:
        print("RuntimeError:", str(error).splitlines()[0])
print(torch.is_anomaly_enabled())
