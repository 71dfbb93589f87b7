"""Word tagger with a BiDAF-style character CNN branch plus frozen word vectors.

The char branch embeds characters to (batch, seq_len, word_len, char_dim) and must hand the
convolution a (batch*seq_len, char_dim, word_len) tensor.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F

CHAR_VOCAB, WORD_VOCAB = 30, 50
CHAR_DIM, CHAR_CH, WIDTH = 8, 16, 3
WORD_DIM, N_TAGS = 16, 4


class CharWordTagger(nn.Module):
    def __init__(self):
        super().__init__()
        self.char_emb = nn.Embedding(CHAR_VOCAB, CHAR_DIM, padding_idx=1)
        self.char_conv = nn.Conv2d(1, CHAR_CH, (CHAR_DIM, WIDTH))
        self.word_emb = nn.Embedding.from_pretrained(torch.randn(WORD_VOCAB, WORD_DIM), freeze=True)
        self.dropout = nn.Dropout(0.1)
        self.head = nn.Sequential(nn.Linear(CHAR_CH + WORD_DIM, 32), nn.ReLU(), nn.Linear(32, N_TAGS))

    def char_features(self, chars):
        # chars: (batch, seq_len, word_len)
        batch = chars.size(0)
        x = self.dropout(self.char_emb(chars))              # (batch, seq_len, word_len, char_dim)
        x = x.view(-1, CHAR_DIM, x.size(2)).unsqueeze(1)    # (batch*seq_len, 1, char_dim, word_len)
        x = self.char_conv(x).squeeze(2)                    # (batch*seq_len, char_ch, conv_len)
        x = F.max_pool1d(x, x.size(2)).squeeze(2)           # (batch*seq_len, char_ch)
        return x.view(batch, -1, CHAR_CH)

    def forward(self, chars, words):
        c = self.char_features(chars)
        w = self.word_emb(words)
        return self.head(torch.cat([c, w], -1))             # (batch, seq_len, n_tags)


def make_data(n=64, seq_len=6, word_len=7, seed=0):
    g = torch.Generator().manual_seed(seed)
    chars = torch.randint(2, CHAR_VOCAB, (n, seq_len, word_len), generator=g)
    words = torch.randint(0, WORD_VOCAB, (n, seq_len), generator=g)
    # tag depends on the first character of the word (a prefix feature)
    tags = chars[:, :, 0] % N_TAGS
    return (chars, words), tags


def loss_fn(logits, tags):
    return F.cross_entropy(logits.reshape(-1, N_TAGS), tags.reshape(-1))


def make_target():
    torch.manual_seed(0)
    inputs, tags = make_data()
    val_inputs, val_tags = make_data(seed=1)
    return {
        "model": CharWordTagger(),
        "batch": (inputs, tags),
        "loss_fn": loss_fn,
        "optimizer": lambda p: torch.optim.Adam(p, lr=1e-3),
        "val_data": [(val_inputs, val_tags)],
    }
