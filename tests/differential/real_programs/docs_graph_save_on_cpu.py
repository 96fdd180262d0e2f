"""torch.autograd.graph.save_on_cpu, its docstring's example, on the CPU: the products
saved inside the block are kept in (pinned) host memory, and backward is unchanged.

Source: https://pytorch.org/docs/2.13/autograd.html#torch.autograd.graph.save_on_cpu
        (pytorch/pytorch, torch/autograd/graph.py)
Adapted: device "cpu" in place of "cuda" (CPU only), pin_memory left at its default.
"""
import torch

a = torch.randn(5, requires_grad=True, device="cpu")
b = torch.randn(5, requires_grad=True, device="cpu")
c = torch.randn(5, requires_grad=True, device="cpu")


def f(a, b, c):
    prod_1 = a * b           # a and b are saved on GPU
    with torch.autograd.graph.save_on_cpu():
        prod_2 = prod_1 * c  # prod_1 and c are saved on CPU
    y = prod_2 * a           # prod_2 and a are saved on GPU
    return y


y = f(a, b, c)
y.sum().backward()
print(torch.allclose(a.grad, 2 * a * b * c), torch.allclose(b.grad, a * a * c),
      torch.allclose(c.grad, a * a * b))
