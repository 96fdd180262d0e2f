"""The straight-through Gumbel-softmax of Gumbel_Softmax_VAE ("ST-gumple-softmax"): a
Gumbel-perturbed softmax, its argmax written into zeros with scatter_, and
(y_hard - y).detach() + y so the one-hot passes the soft gradient.

Source: https://github.com/YongfeiYan/Gumbel_Softmax_VAE/blob/master/gumbel_softmax_vae.py
        (YongfeiYan/Gumbel_Softmax_VAE: sample_gumbel, gumbel_softmax_sample, gumbel_softmax)
Adapted: latent_dim, categorical_dim = 2, 3; logits are a small tensor.
"""
import torch
import torch.nn.functional as F

latent_dim = 2
categorical_dim = 3


def sample_gumbel(shape, eps=1e-20):
    U = torch.rand(shape)
    return -torch.log(-torch.log(U + eps) + eps)


def gumbel_softmax_sample(logits, temperature):
    y = logits + sample_gumbel(logits.size())
    return F.softmax(y / temperature, dim=-1)


def gumbel_softmax(logits, temperature, hard=False):
    """
    ST-gumple-softmax
    input: [*, n_class]
    return: flatten --> [*, n_class] an one-hot vector
    """
    y = gumbel_softmax_sample(logits, temperature)

    if not hard:
        return y.view(-1, latent_dim * categorical_dim)

    shape = y.size()
    _, ind = y.max(dim=-1)
    y_hard = torch.zeros_like(y).view(-1, shape[-1])
    y_hard.scatter_(1, ind.view(-1, 1), 1)
    y_hard = y_hard.view(*shape)
    # Set gradients w.r.t. y_hard gradients w.r.t. y
    y_hard = (y_hard - y).detach() + y
    return y_hard.view(-1, latent_dim * categorical_dim)


q = torch.randn(4, latent_dim * categorical_dim, requires_grad=True)
q_y = q.view(q.size(0), latent_dim, categorical_dim)
soft = gumbel_softmax(q_y, 1.0)
hard = gumbel_softmax(q_y, 1.0, hard=True)
print(soft.sum(dim=-1))
print(hard)
(hard * torch.arange(6.)).sum().backward()
print(q.grad)
