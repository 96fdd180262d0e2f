"""The WGAN-GP gradient penalty of PyTorch-GAN: interpolates between real and fake
samples (legacy Tensor = torch.FloatTensor, Variable), the critic's gradient w.r.t. them
with autograd.grad(create_graph=True, retain_graph=True, only_inputs=True), and the
penalty ((‖grad‖ - 1)²).mean() backpropagated to the critic.

Source: https://github.com/eriklindernoren/PyTorch-GAN/blob/master/implementations/wgan_gp/wgan_gp.py
        (eriklindernoren/PyTorch-GAN, implementations/wgan_gp/wgan_gp.py:
        compute_gradient_penalty)
Adapted: the critic is a small function of two weight tensors (the repository's
nn.Sequential), np.random is seeded; the source's grad_outputs=valid is the fake of its
line above (the variable the function defines).
"""
import numpy as np
import torch
import torch.autograd as autograd
from torch.autograd import Variable

np.random.seed(0)
Tensor = torch.FloatTensor
lambda_gp = 10

w1 = torch.randn(6, 8, requires_grad=True)
w2 = torch.randn(8, 1, requires_grad=True)


def D(img):
    img_flat = img.view(img.shape[0], -1)
    return torch.nn.functional.leaky_relu(img_flat @ w1, 0.2) @ w2


def compute_gradient_penalty(D, real_samples, fake_samples):
    """Calculates the gradient penalty loss for WGAN GP"""
    alpha = Tensor(np.random.random((real_samples.size(0), 1, 1, 1)))
    interpolates = (alpha * real_samples + ((1 - alpha) * fake_samples)).requires_grad_(True)
    d_interpolates = D(interpolates)
    fake = Variable(Tensor(real_samples.shape[0], 1).fill_(1.0), requires_grad=False)
    gradients = autograd.grad(
        outputs=d_interpolates,
        inputs=interpolates,
        grad_outputs=fake,
        create_graph=True,
        retain_graph=True,
        only_inputs=True,
    )[0]
    gradients = gradients.view(gradients.size(0), -1)
    gradient_penalty = ((gradients.norm(2, dim=1) - 1) ** 2).mean()
    return gradient_penalty


real_imgs = Variable(Tensor(np.random.normal(0, 1, (4, 1, 2, 3))))
fake_imgs = Tensor(np.random.normal(0, 1, (4, 1, 2, 3)))
gradient_penalty = compute_gradient_penalty(D, real_imgs.data, fake_imgs.data)
d_loss = -torch.mean(D(real_imgs)) + torch.mean(D(fake_imgs)) + lambda_gp * gradient_penalty
d_loss.backward()
print(gradient_penalty, d_loss)
print(w2.grad.t())
print(w1.grad.abs().sum())
