"""LLaMA's RMSNorm: x · rsqrt(mean(x²) + eps), computed in float32 (x.float()) and cast
back with type_as, times a learned weight.

Source: https://github.com/meta-llama/llama/blob/main/llama/model.py
        (meta-llama/llama, llama/model.py: RMSNorm._norm and forward)
Adapted: the nn.Module is a function of the weight; a float64 input shows the casts.
"""
import torch

eps = 1e-6


def _norm(x):
    return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + eps)


def rms_norm(x, weight):
    output = _norm(x.float()).type_as(x)
    return output * weight


weight = torch.ones(4, requires_grad=True)
x = torch.randn(2, 3, 4, dtype=torch.float64, requires_grad=True)
y = rms_norm(x, weight)
print(y.dtype, y.grad_fn)
(y * torch.arange(4.0)).sum().backward()
print(x.grad[0])
print(weight.grad)
print(torch.allclose(y.pow(2).mean(-1), torch.ones(2, 3, dtype=torch.float64), atol=1e-4))
