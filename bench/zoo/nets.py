# The zoo's hand-written torch.nn models (bench/zoo/build.py exports them):
# architectures users bring that torchvision does not cover -- a BERT-style
# encoder and a GPT-style decoder with KV-cache inputs/outputs (dynamic batch
# and sequence axes), recurrent nets (bidirectional GRU, stacked LSTM), a
# Conv1d audio front end, a U-Net with ConvTranspose and bilinear upsampling,
# an autoencoder. Small widths: they stand for the op patterns and the per-call
# cost of small models, not for any checkpoint.
import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(s, d, heads):
        super().__init__()
        s.h, s.dh = heads, d // heads
        s.qkv = nn.Linear(d, 3 * d)
        s.proj = nn.Linear(d, d)

    def split(s, t):
        b, n, _ = t.shape
        return t.reshape(b, n, s.h, s.dh).transpose(1, 2)

    def forward(s, x, bias, past_k=None, past_v=None):
        q, k, v = s.qkv(x).split(s.h * s.dh, dim=-1)
        q, k, v = s.split(q), s.split(k), s.split(v)
        if past_k is not None:
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        att = (q @ k.transpose(-1, -2)) * (1.0 / math.sqrt(s.dh)) + bias
        y = att.softmax(dim=-1) @ v
        b, _, n, _ = y.shape
        return s.proj(y.transpose(1, 2).reshape(b, n, s.h * s.dh)), k, v


class EncoderLayer(nn.Module):
    """BERT's post-norm block: LayerNorm(x + attn(x)), LayerNorm(h + ffn(h)), erf GELU."""
    def __init__(s, d, heads, ffn):
        super().__init__()
        s.att = SelfAttention(d, heads)
        s.ln1, s.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        s.ffn = nn.Sequential(nn.Linear(d, ffn), nn.GELU(), nn.Linear(ffn, d))

    def forward(s, x, bias):
        x = s.ln1(x + s.att(x, bias)[0])
        return s.ln2(x + s.ffn(x))


class BertEncoder(nn.Module):
    """input_ids, attention_mask [batch, seq] int64 -> last hidden state, pooled output."""
    def __init__(s, vocab=512, d=128, heads=4, layers=2, ffn=512, max_pos=128):
        super().__init__()
        s.tok, s.pos, s.typ = nn.Embedding(vocab, d), nn.Embedding(max_pos, d), nn.Embedding(2, d)
        s.ln = nn.LayerNorm(d)
        s.layers = nn.ModuleList(EncoderLayer(d, heads, ffn) for _ in range(layers))
        s.pool = nn.Linear(d, d)

    def forward(s, input_ids, attention_mask):
        n = input_ids.shape[1]
        pos = torch.arange(n, device=input_ids.device).unsqueeze(0)
        x = s.ln(s.tok(input_ids) + s.pos(pos) + s.typ(torch.zeros_like(input_ids)))
        bias = (1.0 - attention_mask[:, None, None, :].to(x.dtype)) * -10000.0
        for layer in s.layers:
            x = layer(x, bias)
        return x, torch.tanh(s.pool(x[:, 0]))


class DecoderLayer(nn.Module):
    """GPT-2's pre-norm block with tanh GELU; returns the grown K/V cache."""
    def __init__(s, d, heads):
        super().__init__()
        s.ln1, s.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        s.att = SelfAttention(d, heads)
        s.mlp = nn.Sequential(nn.Linear(d, 4 * d), nn.GELU(approximate='tanh'), nn.Linear(4 * d, d))

    def forward(s, x, bias, pk, pv):
        a, k, v = s.att(s.ln1(x), bias, pk, pv)
        x = x + a
        return x + s.mlp(s.ln2(x)), k, v


class GptDecoder(nn.Module):
    """input_ids [batch, seq], past_k_i/past_v_i [batch, heads, past, head_dim]
    -> logits [batch, seq, vocab], present_k_i/present_v_i [batch, heads, past+seq, head_dim].
    Causal over past + new tokens: new token t sees positions <= past + t."""
    def __init__(s, vocab=512, d=128, heads=4, layers=2, max_pos=256):
        super().__init__()
        s.nl, s.heads, s.hd = layers, heads, d // heads
        s.wte, s.wpe = nn.Embedding(vocab, d), nn.Embedding(max_pos, d)
        s.layers = nn.ModuleList(DecoderLayer(d, heads) for _ in range(layers))
        s.ln = nn.LayerNorm(d)
        s.head = nn.Linear(d, vocab, bias=False)

    def forward(s, input_ids, *past):
        n, p = input_ids.shape[1], past[0].shape[2]
        qpos = torch.arange(n, device=input_ids.device) + p
        kpos = torch.arange(p + n, device=input_ids.device)
        bias = (kpos[None, :] > qpos[:, None]).to(torch.float32) * -10000.0
        x = s.wte(input_ids) + s.wpe(qpos).unsqueeze(0)
        present = []
        for i, layer in enumerate(s.layers):
            x, k, v = layer(x, bias, past[2 * i], past[2 * i + 1])
            present += [k, v]
        return (s.head(s.ln(x)), *present)


class BiGru(nn.Module):
    """[batch, time, 40] features -> per-frame scores (a bidirectional GRU tagger)."""
    def __init__(s, feat=40, hidden=64, classes=12):
        super().__init__()
        s.gru = nn.GRU(feat, hidden, batch_first=True, bidirectional=True)
        s.out = nn.Linear(2 * hidden, classes)

    def forward(s, x):
        return s.out(s.gru(x)[0])


class StackedLstm(nn.Module):
    """[batch, time, 40] -> class scores from the last step of a 2-layer LSTM."""
    def __init__(s, feat=40, hidden=96, layers=2, classes=10):
        super().__init__()
        s.lstm = nn.LSTM(feat, hidden, num_layers=layers, batch_first=True)
        s.out = nn.Linear(hidden, classes)

    def forward(s, x):
        return s.out(s.lstm(x)[0][:, -1])


class AudioFeatures(nn.Module):
    """wav2vec2's convolutional front end: [batch, 1, samples] -> [batch, frames, 128]."""
    def __init__(s, c=64, d=128):
        super().__init__()
        layers = [nn.Conv1d(1, c, 10, 5, bias=False), nn.GroupNorm(c, c), nn.GELU()]
        for k in (3, 3, 3, 3, 2, 2):
            layers += [nn.Conv1d(c, c, k, 2, bias=False), nn.GELU()]
        s.conv = nn.Sequential(*layers)
        s.ln = nn.LayerNorm(c)
        s.proj = nn.Linear(c, d)

    def forward(s, wav):
        return s.proj(s.ln(s.conv(wav).transpose(1, 2)))


def double_conv(i, o):
    return nn.Sequential(nn.Conv2d(i, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True),
                         nn.Conv2d(o, o, 3, padding=1, bias=False), nn.BatchNorm2d(o), nn.ReLU(inplace=True))


class UNet(nn.Module):
    """3-level U-Net: two decoder stages upsample by ConvTranspose2d, one by bilinear Resize."""
    def __init__(s, cin=3, classes=2, w=16):
        super().__init__()
        s.e1, s.e2, s.e3, s.mid = double_conv(cin, w), double_conv(w, 2 * w), double_conv(2 * w, 4 * w), double_conv(4 * w, 8 * w)
        s.up3 = nn.ConvTranspose2d(8 * w, 4 * w, 2, stride=2)
        s.d3 = double_conv(8 * w, 4 * w)
        s.up2 = nn.Sequential(nn.Upsample(scale_factor=2, mode='bilinear', align_corners=False), nn.Conv2d(4 * w, 2 * w, 1))
        s.d2 = double_conv(4 * w, 2 * w)
        s.up1 = nn.ConvTranspose2d(2 * w, w, 2, stride=2)
        s.d1 = double_conv(2 * w, w)
        s.out = nn.Conv2d(w, classes, 1)

    def forward(s, x):
        e1 = s.e1(x)
        e2 = s.e2(F.max_pool2d(e1, 2))
        e3 = s.e3(F.max_pool2d(e2, 2))
        m = s.mid(F.max_pool2d(e3, 2))
        y = s.d3(torch.cat([s.up3(m), e3], 1))
        y = s.d2(torch.cat([s.up2(y), e2], 1))
        y = s.d1(torch.cat([s.up1(y), e1], 1))
        return s.out(y)


class Reshape(nn.Module):
    """nn.Unflatten(1, dims) as a view (torch 1.13's exporter has no aten::unflatten)."""
    def __init__(s, *dims):
        super().__init__()
        s.dims = dims

    def forward(s, x):
        return x.reshape(x.shape[0], *s.dims)


class AutoEncoder(nn.Module):
    """28x28 conv autoencoder with a dense 32-d bottleneck; returns the reconstruction."""
    def __init__(s, z=32):
        super().__init__()
        s.enc = nn.Sequential(nn.Conv2d(1, 16, 3, 2, 1), nn.ReLU(), nn.Conv2d(16, 32, 3, 2, 1), nn.ReLU(),
                              nn.Flatten(), nn.Linear(32 * 7 * 7, z))
        s.dec = nn.Sequential(nn.Linear(z, 32 * 7 * 7), nn.ReLU(), Reshape(32, 7, 7),
                              nn.ConvTranspose2d(32, 16, 3, 2, 1, output_padding=1), nn.ReLU(),
                              nn.ConvTranspose2d(16, 1, 3, 2, 1, output_padding=1), nn.Sigmoid())

    def forward(s, x):
        return s.dec(s.enc(x))
