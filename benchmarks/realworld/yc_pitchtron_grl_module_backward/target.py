"""Tiny multi-speaker TTS: text encoder -> mel decoder, plus an adversarial speaker classifier on the text
embeddings behind a gradient reversal layer, to make the text encoding speaker independent."""
import torch
import torch.nn as nn
import torch.nn.functional as F

N_SYMBOLS, N_SPEAKERS, N_MEL = 30, 4, 16


class Classifier(nn.Module):
    def __init__(self, text_embedding_dim, hidden_dim, num_speakers):
        super().__init__()
        self.hidden = nn.Linear(text_embedding_dim, hidden_dim)
        self.output = nn.Linear(hidden_dim, num_speakers)

    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))


class GradientReversalLayer(nn.Module):
    def __init__(self):
        super().__init__()

    def forward(self, x):
        return x

    def backward(self, grad_output):
        return -1 * grad_output


def gradient_reversal_layer(x):
    grl = GradientReversalLayer()
    return grl(x)


class TinyTTS(nn.Module):
    def __init__(self, dim=32):
        super().__init__()
        self.embedding = nn.Embedding(N_SYMBOLS, dim)
        self.encoder = nn.GRU(dim, dim, batch_first=True, bidirectional=True)
        self.speaker_embedding = nn.Embedding(N_SPEAKERS, 2 * dim)
        self.decoder = nn.Sequential(nn.Linear(2 * dim, 64), nn.ReLU(), nn.Linear(64, N_MEL))
        self.speaker_classifier = Classifier(2 * dim, 32, N_SPEAKERS)

    def forward(self, text, speaker):
        enc, _ = self.encoder(self.embedding(text))
        mel = self.decoder(enc + self.speaker_embedding(speaker)[:, None, :])
        spk_logits = self.speaker_classifier(gradient_reversal_layer(enc.mean(1)))
        return mel, spk_logits


def tts_loss(outputs, targets):
    mel, spk_logits = outputs
    mel_target, speaker = targets
    return F.l1_loss(mel, mel_target) + 0.5 * F.cross_entropy(spk_logits, speaker)


def make_batch(n=32, t=12, seed=0):
    g = torch.Generator().manual_seed(seed)
    speaker = torch.randint(0, N_SPEAKERS, (n,), generator=g)
    # each speaker's script favours its own range of symbols, so text carries speaker identity
    text = (speaker[:, None] * 7 + torch.randint(0, 9, (n, t), generator=g)) % N_SYMBOLS
    table = torch.randn(N_SYMBOLS, N_MEL, generator=g)
    mel = table[text] + 0.5 * speaker[:, None, None].float() + 0.1 * torch.randn(n, t, N_MEL, generator=g)
    return (text, speaker), (mel, speaker)


def make_target():
    torch.manual_seed(0)
    inputs, targets = make_batch()
    return {
        "model": TinyTTS(),
        "batch": (inputs, targets),
        "loss_fn": tts_loss,
        "optimizer": lambda params: torch.optim.Adam(params, lr=1e-3),
    }
