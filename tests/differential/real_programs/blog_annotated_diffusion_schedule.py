"""The Annotated Diffusion Model (Hugging Face blog): the linear beta schedule, alphas'
running product (torch.cumprod) shifted with F.pad, the extract helper (gather, then
reshape), and q_sample adding noise; the loss of a denoiser's prediction.

Source: https://huggingface.co/blog/annotated-diffusion
        (huggingface/blog, annotated-diffusion.md: linear_beta_schedule, extract, q_sample)
Adapted: 20 timesteps, a 1x2x2 "image", and a one-weight denoiser in place of the U-Net.
"""
import torch
import torch.nn.functional as F


def linear_beta_schedule(timesteps):
    beta_start = 0.0001
    beta_end = 0.02
    return torch.linspace(beta_start, beta_end, timesteps)


timesteps = 20
betas = linear_beta_schedule(timesteps=timesteps)
alphas = 1. - betas
alphas_cumprod = torch.cumprod(alphas, axis=0)
alphas_cumprod_prev = F.pad(alphas_cumprod[:-1], (1, 0), value=1.0)
sqrt_recip_alphas = torch.sqrt(1.0 / alphas)
sqrt_alphas_cumprod = torch.sqrt(alphas_cumprod)
sqrt_one_minus_alphas_cumprod = torch.sqrt(1. - alphas_cumprod)
posterior_variance = betas * (1. - alphas_cumprod_prev) / (1. - alphas_cumprod)
print(alphas_cumprod[:3], alphas_cumprod_prev[:3], posterior_variance[-2:])


def extract(a, t, x_shape):
    batch_size = t.shape[0]
    out = a.gather(-1, t.cpu())
    return out.reshape(batch_size, *((1,) * (len(x_shape) - 1))).to(t.device)


def q_sample(x_start, t, noise=None):
    if noise is None:
        noise = torch.randn_like(x_start)
    sqrt_alphas_cumprod_t = extract(sqrt_alphas_cumprod, t, x_start.shape)
    sqrt_one_minus_alphas_cumprod_t = extract(sqrt_one_minus_alphas_cumprod, t, x_start.shape)
    return sqrt_alphas_cumprod_t * x_start + sqrt_one_minus_alphas_cumprod_t * noise


x_start = torch.tensor([[[[0.5, -0.5], [1.0, 0.0]]], [[[0.1, 0.2], [0.3, 0.4]]]])
t = torch.tensor([3, 15])
noise = torch.randn_like(x_start)
x_noisy = q_sample(x_start, t, noise)
print(x_noisy)
w = torch.tensor(0.5, requires_grad=True)
predicted_noise = w * x_noisy
loss = F.smooth_l1_loss(noise, predicted_noise)
loss.backward()
print(loss, w.grad)
