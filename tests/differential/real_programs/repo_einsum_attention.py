"""Attention written with einsum, as lucidrains' denoising-diffusion-pytorch writes it:
q scaled, sim = einsum('b h d i, b h d j -> b h i j', q, k), softmax, and
out = einsum('b h i j, b h d j -> b h i d', attn, v).

Source: https://github.com/lucidrains/denoising-diffusion-pytorch/blob/main/denoising_diffusion_pytorch/denoising_diffusion_pytorch.py
        (lucidrains/denoising-diffusion-pytorch: Attention.forward)
Adapted: the einops rearranges are written with view and permute; q, k, v are random.
"""
import torch
from torch import einsum

b, heads, dim_head, n = 2, 2, 3, 4
scale = dim_head ** -0.5
q = torch.randn(b, heads, dim_head, n, requires_grad=True)
k = torch.randn(b, heads, dim_head, n, requires_grad=True)
v = torch.randn(b, heads, dim_head, n, requires_grad=True)

q_scaled = q * scale
sim = einsum('b h d i, b h d j -> b h i j', q_scaled, k)
attn = sim.softmax(dim=-1)
out = einsum('b h i j, b h d j -> b h i d', attn, v)
out = out.permute(0, 1, 3, 2).reshape(b, heads * dim_head, n)
print(out.shape, attn.sum(-1))
out.pow(2).sum().backward()
print(q.grad[0, 0])
print(v.grad.sum(dim=(0, 1)))
