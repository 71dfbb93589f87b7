"""How each word-read fact is recognised: broad readings of trends, relations and behaviours.

Each rule is (fact id, what the fact says, regular expressions tried per sentence, case-insensitive).
These say how a fact is *read*; what a fact *means* for each cause is the catalog's `facts` tables.
Numeric facts (loss near ln C, accuracy above 100%, ...) are read in facts.py.

May import: nothing of ours.
"""

# ruff: noqa: E501  (a table of regular expressions: one pattern per line reads better than split strings)
from __future__ import annotations

TRAIN = r"\btrain(?:ing)?\b"
VAL = r"\b(?:val(?:idation)?|dev|eval(?:uation)?|test(?:ing)?|held[- ]?out|valid(?= (?:loss|acc\w*|set|split|data|score|metric)))\b"  # "valid loss": fastai
NOT = r"(?:n't|\bnot|\bnever|\bno longer|\bfails? to|\bwon't|\bhardly|\bbarely)"
UP = (
    r"(?:ris(?:e|es|ing)\b|rose\b|increas\w*|go(?:es|ing)? up|went up|climb\w*|grow\w*|creep\w* up|shoot\w* up"
    r"|turn\w* (?:up|upward)|get(?:s|ting)? worse|worsen\w*|deteriorat\w*|balloon\w*)"
)
DOWN = (
    r"(?:fall(?:s|ing)?\b|fell\b|decreas\w*|go(?:es|ing)? down|went down|drop\w*|declin\w*|shrink\w*|improv\w*|creep\w* down"
    r"|approach\w* (?:zero|0)|(?:near|close to|almost) (?:zero|0)\b|keeps? (?:going down|falling|decreasing|improving))"
)
LOSSW = r"(?:loss|error|perplexity|ppl|nll|mse|cross[- ]?entropy|\bwer\b|\bcer\b)"
ACCW = r"(?:acc(?:uracy)?|f1|auc|map|iou|dice|bleu|score|precision|recall|top-?[15]|r2|r²|r\^2)"
NOTVAL = r"(?:(?!\b(?:val|validation|valid|dev|test|eval)\b).)"
NOTTRAIN = r"(?:(?!\btrain).)"

# (fact id, description, patterns)
RULES: list[tuple[str, str, list[str]]] = [
    # --- train / validation relations
    ("train_improves", "training loss or accuracy improving", [
        TRAIN + NOTVAL + r"{0,40}" + LOSSW + NOTVAL + r"{0,40}" + DOWN,
        TRAIN + NOTVAL + r"{0,15}" + ACCW + NOTVAL + r"{0,40}(?:ris|increas|go(?:es|ing)? up|climb|reach\w* (?:9\d|100)|near(?:ly)? (?:100|perfect)|hits? (?:9\d|100))",
        TRAIN + NOTVAL + r"{0,40}" + r"(?:keeps? (?:going down|falling|decreasing|improving)|looks? (?:great|fine|good|perfect))",
        r"(?:fits?|memori[sz]\w*) the train\w*",
        TRAIN + NOTVAL + r"{0,20}" + LOSSW + NOTVAL + r"{0,20}(?:goes|went|gets|got|drops?|falls?|fell) (?:down )?to (?:almost |nearly |near )?(?:0\.0\d*|zero|0\b)",
    ]),
    ("val_worsens", "validation loss rising or validation accuracy falling", [
        VAL + NOTTRAIN + r"{0,20}" + LOSSW + NOTTRAIN + r"{0,90}" + UP,
        VAL + NOTTRAIN + r"{0,20}" + ACCW + NOTTRAIN + r"{0,40}(?:drop\w*|decreas\w*|fall\w*|fell|declin\w*|get(?:s|ting)? worse|go(?:es|ing)? down|went down|peak\w* (?:and|then))",
        VAL + r".{0,40}\b(?:bottom\w* out|turn\w* around|u-shape)", LOSSW + r" (?:on|of|for) (?:the |my |our )?" + VAL + NOTTRAIN + r"{0,90}" + UP,
    ]),
    ("user_says_overfits", "the user calls it overfitting", [r"\boverfit\w*|over-fit\w*|memori[sz]\w*"]),
    ("user_says_underfits", "the user calls it underfitting", [
        r"\bunderfit\w*|under-fit\w*|not expressive|too (?:simple|small) (?:a )?(?:model|network)|capacity",
        r"linear (?:model|regression|classifier|layer) (?:on|for) (?:a |an )?(?:clearly |highly |strongly |very )?non-?linear",
    ]),
    ("generalization_gap", "training results far better than validation", [
        TRAIN + r".{0,20}" + LOSSW + r".{0,30}(?:much|far|way|a lot|significantly) (?:lower|smaller|below|better)",
        TRAIN + r".{0,20}" + ACCW + r".{0,30}(?:much|far|way|a lot|significantly) (?:higher|above|better)",
        VAL + r".{0,20}" + LOSSW + r".{0,30}(?:much|far|way|a lot|significantly) (?:higher|above|worse)",
        VAL + r".{0,20}" + ACCW + r".{0,30}(?:much|far|way|a lot|significantly) (?:lower|below|worse)",
        r"(?:big|large|huge|widening|growing) (?:gap|difference|discrepancy)(?=.{0,80}\b(?:train|val|test|dev\b|held|generali|overfit|unseen))|(?:train|val|test|dev\b|held|generali|overfit|unseen)\w*\b.{0,80}(?:big|large|huge|widening|growing) (?:gap|difference|discrepancy)",
    ]),
    ("val_better_than_train", "validation results better than training", [
        VAL + r".{0,20}" + LOSSW + r".{0,30}(?:lower|smaller|below|less|better) than (?:the |my )?train",
        VAL + r".{0,20}" + ACCW + r".{0,30}(?:higher|above|better) than (?:the |my )?train",
        VAL + r".{0,30}better than (?:the |my )?train",
        TRAIN + r".{0,20}" + LOSSW + r".{0,30}(?:higher|above|worse) than (?:the |my )?" + VAL + "|" + VAL + r" " + LOSSW + r"\b.{0,80}\b(?:well |far |way )?(?:below|under) (?:the |my )?train\w* loss",
        TRAIN + r".{0,20}" + ACCW + r".{0,30}(?:lower|below|worse) than (?:the |my )?" + VAL,
    ]),
    ("train_poor", "the model does poorly even on the training data", [
        TRAIN + r".{0,15}" + ACCW + r".{0,40}(?:\blow\b|poor|bad|stuck|\bonly\b|never|plateau\w*|stall\w*|barely|" + NOT + r" (?:go|get|rise|improve|exceed|pass))",
        TRAIN + r".{0,15}" + LOSSW + r".{0,40}(?:\bhigh\b|stuck|plateau\w*|stall\w*|flat|stays? (?:high|large|around)|" + NOT + r" (?:go down|decrease|fall|drop|improve))",
        r"(?:even|also|just as bad|as bad) on (?:the )?train\w*",
        r"(?:can't|cannot|can not|unable to|fails? to|doesn't|does not) (?:even )?(?:fit|overfit|memori[sz]e|learn)",
        r"\bboth\b.{0,50}(?:plateau\w* (?:high|early|at a (?:high|bad|poor))|stuck|\bhigh\b|poor|\blow\b|flat|stall\w*)",
        r"(?:train\w* and val\w*|val\w* and train\w*).{0,50}(?:plateau\w* (?:high|early|at a (?:high|bad|poor))|stuck|\bhigh\b|poor|\blow\b|flat|stall\w*)",
    ]),
    ("still_improving", "the curves were still improving when training stopped", [
        r"still (?:clearly |steadily |visibly |slowly )?(?:creep\w* (?:down|lower)|decreas\w*|improv\w*|going (?:down|up)|falling|dropping|getting better|learning|rising|increasing|climbing|trending|moving|heading (?:down|up)|(?:has|had|shows?) (?:a )?(?:clear |steep )?(?:downward|falling|decreasing) (?:slope|trend))",
        r"(?:no|not yet a|without a) plateau(?: yet)?\b|(?:downward|falling|decreasing) (?:slope|trend).{0,40}(?:at|by) the end",
        r"(?:hasn't|has not|had not|haven't|have not|not yet|never|didn't|did not) (?:yet |fully )?(?:converge\w*|plateau\w*|flatten\w*|saturat\w*|level\w* off)|(?:doesn't|does not|isn't|is not) (?:look|seem)s? (?:fully |quite )?converged\b",
        r"(?:stopped|stop|killed|ended|interrupted|cut) (?:the )?(?:training|run)(?: early| after| at| before)",
        r"(?:more|longer) (?:epochs|iterations|training|steps) (?:help|improv|make)",
        r"(?:keeps?|kept) (?:on )?(?:improving|getting better|going down)",
    ]),
    ("short_training", "training ran only briefly", [
        r"\b(?:only|just|merely) (?:trained |ran |run |train |training )?(?:for )?(?:\d[\d,.]*k?|a few|a couple(?: of)?|few|one|two|three|four|five|six|seven|eight|ten) (?:epochs?|iterations?|iters|steps|updates|minutes|hours|batches)",
        r"(?:trained|ran|run|training) (?:it )?(?:for )?(?:only|just|merely) ",
        r"(?:trained|train|ran|run|training) (?:it |the model )?for (?:a )?(?:few|handful of|small number of|couple of) (?:epochs|iterations|steps|updates)",
        r"(?:early|first) (?:checkpoint|epochs?) only",
        r"for (?:\d+|one|two|three|a few) (?:epochs?|iterations|steps) only|(?:budget|time|compute|quota) ran out|ran out of (?:budget|time|compute)",
    ]),
    ("outputs_blurry", "generated outputs blurry or low quality", [
        r"\b(?:blurr?y|blurred|grainy|smear\w*|checkerboard|artifacts?|artefacts?|washed[- ]out|not sharp|low[- ]quality|noisy (?:images|samples|outputs))"
    ]),
    # --- the loss curve itself
    ("loss_flat", "the loss barely moves from its starting value", [
        LOSSW + r".{0,30}" + r"(?:barely|hardly|doesn't|does not|never|won't|not) (?:move|change|decrease|go down|drop|fall|budge|improve)\w*",
        LOSSW + r".{0,40}(?:stuck|flat|plateau\w*|stall\w*|constant|stagnat\w*|unchanged|stays? (?:at|around|near|the same))",
        r"(?:stuck|flat|plateau\w*|stall\w*) (?:at|around|near) (?:about )?(?:(?!(?:[5-9]\d|100)(?:\.\d+)?\s*%)\d|chance|the initial|its initial|random)",
        r"(?:stays?|stuck|remains?|plateau\w*) (?:at )?(?:a )?(?:high|large|the same|constant|its initial) " + LOSSW,
        r"stops? (?:improving|learning|decreasing|going down)",
        r"(?:doesn't|does not|not|never|fails? to) (?:learn|train|converge|improve)\w*",
        r"no (?:progress|learning|improvement)",
        LOSSW + r".{0,60}stays? (?:exactly |right |just )?(?:there|put|constant|unchanged)",
    ]),
    ("loss_slow", "the loss falls, but very slowly", [
        r"(?:very |extremely |painfully |super |really |too )slow\w*",
        r"\b(?:creep\w*|crawl\w*|inch\w* down|snail)",
        LOSSW + r".{0,30}(?:slowly|gradually|a tiny bit|a little|marginally)",
        r"(?:tiny|slight|small|gentle|shallow),? (?:\w+,? )?(?:\w+ )?(?:decline|downward slope|decrease|slope)|nearly (?:horizontal|flat) line",
    ]),
    ("loss_unstable", "the loss oscillates, jumps or spikes", [
        r"haywire|up and down|oscillat\w*|\bspik\w*|\bjump\w* (?:around|up|wildly|all over)|bounc\w*|erratic\w*|zig-?zag\w*|\bswing\w*|all over the place|unstable|instabilit\w*",
    ]),
    ("good_then_worse", "training starts well and then degrades", [
        r"(?:at first|initially|first few|for the first|in the beginning|early on|to begin with|starts? (?:out )?(?:fine|well|ok|normally|nicely|good)).{0,100}\b(?:then|after|but|until|later|afterwards|suddenly)\b",
        r"(?:fine|well|nicely|normal\w*|good|ok)\w* (?:for|during) (?:the first|a few|some|a while|\d+)",
    ]),
    ("diverges", "the loss blows up", [r"explod\w*|diverg\w*|blow\w* up|blew up|skyrocket\w*|shoot\w* up|shot up|goes to (?:the )?(?:moon|infinity)"]),
    ("train_loss_rises", "the training loss goes up", [
        r"(?:^|[^a-z])(?<!\bval )(?<!\bvalid )(?<!\bvalidation )(?<!\btest )(?<!\bdev )" + NOTVAL + r"{0,10}" + LOSSW + NOTVAL + r"{0,30}(?:(?:goes|went|going|moves|moving) up\b|climb(?:s|ed|ing)?\b|creep?s? up|crept up)",
        r"(?:increas\w*|ris\w*|goes up) instead",
        r"wrong direction",
    ]),
    # --- gradients and parameters
    ("grad_norm_grows", "gradient norms grow or explode", [
        r"grad\w*(?: norms?)?.{0,30}(?:grow\w*|increas\w*|explod\w*|huge|enormous|\blarge\b|jump\w*|spik\w*|blow\w*|orders? of magnitude)",
        r"(?:huge|enormous|exploding|growing) grad\w*",
    ]),
    ("grad_small", "gradients are tiny in some layers", [
        r"grad\w*(?: norms?)?.{0,40}(?:tiny|very small|vanish\w*|1e-\d|10\^-\d|close to zero|near zero|negligible)",
        r"vanish\w*",
    ]),
    ("grad_none", "gradients are None or exactly zero", [
        r"grad\w*.{0,40}(?:\bis|\bare|\bstays?|\bremain\w*)\s+(?:all\s+|exactly\s+|always\s+)?(?:none|null|zero|0)\b",
        r"\.grad\s*(?:==|is)\s*none",
        r"\.grad (?:is|are) none|no grad\w*\b|does(?: not|n't) require grad|element 0 of tensors",
    ]),
    ("weights_static", "weights stay exactly the same", [
        r"(?:weights?|param\w*|embeddings?).{0,40}(?:identical|unchanged|never chang\w*|don't chang\w*|do not chang\w*|didn't chang\w*|not chang\w*|stay (?:at|the same|exactly)|remain (?:at|the same|exactly)|don't move|do not move|not (?:being )?updat\w*)",
        r"(?:weights?|param\w*).{0,30}(?:initial values|same (?:values|as at init))",
        r"(?:state_dict|weights?|param\w*|checkpoint)\w*.{0,30}(?:bit-?for-?bit|bitwise|exactly) (?:identical|the same|equal|unchanged)",
        r"(?:predictions?|outputs?|weights?|logits)\b.{0,60}(?:same|identical|unchanged) (?:before and after|as before) (?:training|the update|the step|optimi[sz]er\.step)",
    ]),
    ("early_layers_static", "early layers (encoder, backbone) are not learning", [
        r"(?:(?:early|first|lower|bottom|base) (?:few )?(?:layers?|part|blocks?|convs?|stages?)|encoder|backbone|embedding\w*|feature extractor).{0,50}" + NOT + r"\s*(?:\w+ )?(?:learn|train|updat|chang|mov)\w*",
        r"only (?:the )?(?:last|final|classification|classifier|output|new) (?:layer|head)\w*.{0,30}(?:learn|train|updat|chang)\w*",
    ]),
    ("frozen_still_change", "layers meant to be frozen still change", [
        r"(?:frozen|freez\w*).{0,80}(?:still|anyway|nonetheless|nevertheless|keep|also).{0,30}(?:chang|updat|mov|train|drift|differ)\w*",
        r"(?:frozen|froze\b|freez\w*|requires_grad\s*=\s*false|requires_grad_\(false\)).{0,80}(?:chang|updat|drift|mov|differ)\w*",
        r"weight[_ ]decay.{0,50}(?:frozen|froze\b|touch\w*|still appl\w*|applie?s? to (?:the )?(?:frozen|fixed))",
        r"(?:still|keeps?) (?:chang|updat|train|mov)\w*.{0,60}(?:frozen|freez\w*|requires_grad)",
        r"(?:didn't|did not|don't|do not) want (?:them|it|those|these|the \w+) (?:touched|changed|updated|trained)|(?:meant|supposed|intended) to (?:stay|remain|be) (?:fixed|frozen|untouched|unchanged)",
        r"(?:pretrained|base|downloaded|original|initial) (?:\w+ )?(?:checkpoint|model|weights|encoder|backbone|vectors?).{0,80}(?:max(?:imum)? abs\w* diff\w*|differs?|different|drift\w*)(?!.{0,10}\b(?:is|are) (?:exactly )?(?:0|zero)(?![.\d]))",
        r"(?:differs?|different|changed) (?:from the (?:base|original|pretrained)\w* )?in (?:layers|modules|weights|parameters) (?:that|which) (?:have no|had no|were not|weren't|are not)",
    ]),
    ("param_count_low", "the parameter count is lower than expected", [
        r"(?:param\w*|parameter) count.{0,40}(?:drop\w*|smaller|lower|fewer|less|missing|wrong)",
        r"fewer (?:trainable )?param\w*|(?:missing|not listed) (?:from|in) (?:model\.)?parameters",
        r"(?:layers?|modules?|blocks?).{0,40}(?:missing|not (?:listed|shown|included|registered)).{0,30}(?:parameters|state_dict|summary|optimizer)|(?:state_dict|checkpoint|parameters\(\))\W(?:only |just )?(?:has|contains?|holds?|shows?|lists?)\b.{0,50}\b(?:nothing|no (?:entr\w*|keys?|weights?|tensors?)) for\b",
    ]),
    # --- outputs
    ("constant_prediction", "the model predicts nearly the same output for every input", [
        r"(?:predict|output)\w*.{0,40}(?:same|constant|identical|one|single) (?:value|class|label|output|number|token|answer|thing)?.{0,25}(?:for|on|regardless of) (?:every|all|each|any)",
        r"(?:always|only) (?:predicts?|outputs?) (?:the )?(?:same|one|majority|a single|a constant)",
        r"(?:mean|average) (?:of|value of) the (?:targets?|labels?|training)",
        r"(?:ignores?|independent of) (?:the )?input",
        r"(?:collaps\w*) to (?:a |the )?(?:constant|mean|single|one)",
    ]),
    ("outputs_unconfident", "predicted probabilities never become confident", [
        r"(?:probabilit\w*|confiden\w*|softmax outputs?).{0,40}(?:never|don't|do not|stay\w*|remain\w*|low|flat|uniform|close to 1/|hover\w*|(?:at most|below|under|around|about|~) ?0?\.[0-4])",
        r"(?:never|not) (?:very |get |become )?confident",
    ]),
    ("probs_not_normalised", "probabilities that do not sum to one per example", [
        r"(?:don't|do not|doesn't|does not|never|not) (?:add|sum) (?:up )?to (?:one|1)\b",
        r"probabilit\w* (?:of )?(?:1(?:\.0+)?|one|100%) (?:for|to) (?:every|all|each) (?:class|label|category)|(?:sum|add) (?:up )?to (?:more|less) than (?:one|1)\b",
        r"(?:sums?|adds? up) to (?:about |around |roughly |~)?(?:0?\.\d+|\d+(?:\.\d+)?) instead of (?:one|1)\b",
    ]),
    # --- evaluation behaviour
    ("batch_dependent", "results depend on the batch size or composition", [
        r"batch[ _-]?size.{0,60}(?:depend\w*|chang\w*|differ\w*|vary|varies|worse|better|affect\w*|matter\w*|sensitiv\w*)",
        r"(?:depend\w*|chang\w*|differ\w*|vary|varies|affect\w*|sensitiv\w*).{0,60}batch[ _-]?(?:size|composition)",
        r"(?:depend\w*|chang\w*|differ\w*|vary|varies) (?:with|on|by) (?:the )?batch\b",
        r"(?:in|between|across) (?:different|other) batch(?:es)?",
        r"(?:sorted|mixed|shuffled|homogeneous|class-sorted|grouped|single-class) batch(?:es)?.{0,80}(?:different|differ\w*|worse|better|\d+ ?%)",
        r"(?:one|single|1) (?:example|sample|image|item|input|request)s? per (?:gpu|device|call)|(?:serv\w*|handl\w*|process\w*) single requests",
        r"(?:different|differ\w*|worse|better|chang\w*).{0,80}batch(?:es)? of \d+|batch(?:es)? of \d+.{0,60}(?:different|differ\w*|worse|better)",
    ]),
    ("single_example_differs", "one example alone behaves differently from a batch", [
        r"(?:single|one)[- ](?:example|sample|image|item|input|sentence|instance)s?(?: at a time)?(?! per batch)",
        r"batch[ _-]?size (?:of |=\s*)?[12]\b|bs\s*=\s*[12]\b",
        r"(?:one|1) (?:at a time|by one)",
    ]),
    ("others_affect_output", "an example's output changes when other examples change", [
        r"(?:depend\w*|chang\w*|differ\w*|vary|varies|affect\w*|influenc\w*).{0,60}(?:other|rest of the|neighbou?r\w*|companion\w*|what else|which (?:other )?(?:examples|samples|items))",
        r"(?:other|neighbou?ring) (?:examples|samples|items|rows|sequences|images) (?:in the batch )?(?:change|affect|influence|leak)",
    ]),
    ("tiny_batch", "training with tiny batches", [r"batch[ _-]?size (?:of |=\s*)?[12]\b|(?:tiny|very small) batch\w*|bs\s*=\s*[12]\b|(?:one|single|1|two|2) (?:example|sample|image|item|input)s? per batch"]),
    ("eval_nondeterministic", "evaluation of the same model gives different numbers", [
        r"(?:same|identical|fixed) (?:checkpoint|model|weights|input|inputs|data|batch|image|example|sample).{0,80}(?:different|differ\w*|changes?|vary|varies|not the same|fluctuat\w*|not reproducible|another|jump\w*|noisy|inconsistent|random\w*)",
        r"(?:same|identical) (?:checkpoint|model|weights|input|data|test set|validation set|batch)\w*.{0,80}(?:twice|two times|again|re-?run\w*).{0,40}\d.{0,30}(?:and then|then|vs\.?|versus|and) ~?\d",
        r"(?:twice|two times|re-?run\w*|each time|every time|run to run|between runs|from run to run|repeated(?:ly)?).{0,60}(?:different|differ\w*|vary|varies|change\w*|jump\w*|fluctuat\w*|noisy|inconsistent|not (?:the same|identical|reproducible))",
        r"(?:different|differ\w*|vary|varies|change\w*|fluctuat\w*).{0,40}(?:twice|each time|every time|run to run|between runs|between calls|on every call)",
        r"(?:non-?deterministic|not deterministic|not reproducible|irreproducible)",
    ]),
    ("order_dependent", "results depend on what was processed before", [
        r"(?:depend\w*|chang\w*|differ\w*).{0,40}(?:on )?(?:what|which).{0,30}(?:before|previous\w*|earlier|preceding|first)",
        r"order (?:of|in which) (?:the )?(?:batches|examples|evaluation|calls|samples|inputs|data)",
        r"(?:previous|preceding|earlier|last) (?:batch|call|input|sequence|example)\w*.{0,40}(?:affect\w*|influenc\w*|leak\w*|chang\w*|carr\w*)",
        r"(?:influenc\w*|affect\w*|contaminat\w*|context) (?:by |from )?(?:the )?(?:end of )?(?:the )?(?:previous|preceding|prior|last|earlier) (?:\w+ )?(?:request|user|call|query|prompt|document|sequence|batch|input|one|episode)",
        r"after (?:a )?restart.{0,60}(?:first|correct|fine|works)|(?:fresh|new|reset) (?:model|state|hidden state|instance).{0,60}(?:differ\w*|different|vs|versus|than)|back[- ]to[- ]back",
    ]),
    ("eval_mode_set", "the model is in eval mode when it happens", [r"(?:even |already )?(?:in|under|with|after) (?:model\.)?eval(?:\(\))? mode|(?:called|calling|call) (?:model\.)?eval\(\)|with (?:model\.)?eval\(\)"]),
    ("eval_worse_than_train_same_data", "evaluation on the training data scores worse than training does", [
        r"(?:eval\w*|val\w*|test\w*|inference).{0,60}(?:worse|lower|different).{0,40}(?:even )?on (?:the )?(?:same |training )(?:data|set|images|examples)",
        r"(?:eval\w*|inference) mode.{0,40}(?:worse|lower|different|bad)",
    ]),
    ("after_first_eval", "behaviour changes right after a validation pass", [
        r"after (?:the |each |every )?(?:first )?(?:validation|eval\w*|val)\b(?: pass| step| epoch| run| loop| call)?",
        r"(?:once|when|since) (?:the )?(?:first )?(?:validation|evaluation) (?:ran|runs|happens|started|pass)",
        r"(?:when|since|after|once) (?:i |we )?(?:first )?(?:ran|run|running|did|call\w*) (?:the )?(?:first )?(?:validation|evaluation|eval\b|val\b)",
        r"from (?:epoch|the second epoch|epoch 2) on\b.{0,80}(?:identical|same|frozen|stop\w*|no longer)",
    ]),
    ("mentions_dropout", "dropout in the model", [r"\bdropout\b"]),
    ("train_deterministic", "training-mode passes that should be random are identical", [
        r"(?:same|identical) (?:batch|input|example)\w*.{0,60}(?:during|in|while) train\w*.{0,40}(?:identical|the same|same|deterministic)",
        r"(?:during|in|while) train\w*.{0,60}(?:identical|deterministic|exactly the same) (?:loss|output|result)",
        r"train\w*(?: mode)? (?:passes|forwards?|forward passes|steps|runs|calls)\b.{0,60}(?:identical|exactly the same|deterministic|bit-?for-?bit)",
        r"dropout.{0,60}(?:no (?:longer )?(?:effect|active)|inactive|(?:turned|switched) off|does nothing|stop\w* (?:working|being applied))",
        r"dropout.{0,60}(?:makes? no difference|not doing anything|doesn't (?:do|change) anything|changes? nothing)",
        r"train\w* loss.{0,60}(?:match\w*|same as|identical to|equals?).{0,60}eval\w*(?: mode)?",
    ]),
    ("mentions_batchnorm", "batch normalisation in the model", [
        r"batch ?norm\w*|\bbn\b|running (?:mean|var|stat\w*)",
        r"normali[sz]ation (?:over|across|on) (?:its |the |each |a )?(?:local |own |mini-?)?batch|(?:per-?|local )batch statistics",
    ]),
    # --- sequences and attention
    ("future_tokens", "predictions can see future tokens", [
        r"(?:future|later|next|upcoming|subsequent|following) (?:tokens?|positions?|words?|time ?steps?|frames?)",
        r"look\w* ahead|peek\w*|cheat\w*",
        r"chang\w* (?:the )?(?:tokens?|inputs?|words?|frames?|values?) (?:after|later than|beyond|past) .{0,60}(?:chang|affect|alter|mov)\w* .{0,40}(?:earlier|before|at (?:position|index|step|token|time)|previous)",
    ]),
    ("generation_bad", "generated text is bad although the training loss is low", [
        r"generat\w*.{0,60}(?:gibberish|garbage|nonsense|repeat\w*|bad|poor|worse|broken|junk|random|incoherent|useless)",
        r"(?:gibberish|garbage|nonsense|incoherent)",
    ]),
    ("attention_saturated", "attention weights collapse onto one position", [
        r"attention.{0,50}(?:one-?hot|peak\w*|spiky|saturat\w*|collaps\w*|all (?:on|to) (?:one|a single)|single (?:token|position)|near(?:ly)? (?:0|zero|1)\b|extreme|sharp)",
        r"softmax.{0,30}(?:saturat\w*|one-?hot|peak\w*)",
        r"attention\b.{0,40}(?:stuck|fully|entirely|all) on (?:one|a single)|attention entropy.{0,30}(?:near|almost|close to|~|is) ?(?:0|zero)",
        r"\b(?:attention )?maps?\b.{0,40}(?:close to |nearly |almost )?one-?hot|one-?hot (?:attention|maps?)",
        r"(?:peaky|spiky|sharp|one-?hot|saturated|collapsed) attention|attends? (?:to )?(?:exactly |only )?(?:one|a single) (?:other )?(?:token|position|patch)",
    ]),
    ("attention_mentioned", "attention layers", [r"attention|transformer|self-attn|\bmha\b|multi-?head"]),
    ("worse_with_width", "it gets worse as the model or head dimension grows", [
        r"(?:larger|bigger|wider|increas\w*|more) (?:heads?|head[ _]dim\w*|d_model|d_k|hidden size|embedding (?:size|dim\w*)|dimension\w*|width|model).{0,60}(?:worse|unstable|diverg\w*|nan|fail\w*|breaks?|slower)",
    ]),
    ("scale_mentioned", "the attention scale (1/sqrt(d)) comes up", [r"sqrt|√|\bscal(?:e|ing|ed)\b.{0,20}(?:d_k|dim|head)|temperature|d_k\b|head_dim"]),
    # --- data
    ("too_good", "results look too good to be true", [
        r"too good|suspicious\w*|surprisingly (?:high|good|low)|unrealistic\w*|impossibly (?:good|high|low)|better than (?:the )?(?:state of the art|sota|paper)",
        r"(?:far|well|way|much) (?:above|better than|higher than) (?:the )?(?:published|reported|paper|literature|state of the art|sota|benchmark|leaderboard)",
    ]),
    ("new_data_worse", "much worse on new or production data than on validation", [
        r"(?:production|new|fresh|unseen|never (?:been )?seen|real[- ]world|external|deploy\w*|truly held[- ]out|in the wild|other hospital|new (?:patients|users))\b.{0,60}(?:much |far )?(?:worse|lower|drops?|dropp\w*|poor|bad|coin|chance|guess\w*|fails?|falls?|collaps\w*)",
        r"(?:worse|lower|drops?|poor|bad|fails?|collaps\w*).{0,40}(?:production|new data|fresh data|unseen data|real[- ]world|deploy\w*)",
        r"(?:\bcv\b|cross[- ]validat\w*|local|offline|internal|validation).{0,40}\d.{0,80}(?:leaderboard|production|online|deploy\w*|external|hidden test|private test|new data).{0,30}\d",
    ]),
    ("group_overlap", "the same patients, users or documents in train and validation", [
        r"(?:same|overlapping|shared) (?:patients?|users?|subjects?|speakers?|documents?|persons?|people|customers?|sessions?|individuals?|slides?|videos?|cells? from)",
        r"(?:patients?|users?|subjects?|speakers?|documents?|customers?|individuals?).{0,40}(?:in both|appear in both|across (?:the )?splits?|shared between)",
        r"(?:split|shuffl\w*).{0,40}(?:by|per|at the level of) (?:image|row|sample|slice|frame|cell|sentence|patch)\w*",
    ]),
    ("labels_shifted", "labels shifted, shuffled or out of line with the inputs", [
        r"(?:labels?|targets?).{0,40}(?:shifted|off[- ]by[- ]one|offset|misalign\w*|out of (?:order|sync|line)|shuffled|wrong order|mismatch\w*)",
        r"shift\w* (?:twice|two times|again|double)|double[- ]shift\w*",
        r"(?:two|2|three|3) (?:tokens?|steps?|positions?|frames?) ahead|(?:is|are) labell?ed (?:as )?(?:a |an )?(?!correct)\w+",
        r"(?:labels?|targets?).{0,30}(?:don't|do not|doesn't|does not|never|no longer|stopped to|stop) (?:match|correspond|line up|belong)",
        r"(?:shows?|turns?|comes?) up labell?ed|appears? labell?ed",
    ]),
    ("labels_equal_inputs", "the labels are the inputs themselves", [
        r"(?:labels?|targets?).{0,30}(?:same as|equal to|identical to|copy of|copies of|just) (?:the )?(?:inputs?|input_ids|input tokens)",
        r"labels?\s*=\s*(?:input_ids|inputs?)\b",
        r"(?:predict\w*|copy|cop(?:ies|ying)) (?:the )?(?:current|same|input) token",
    ]),
    ("raw_inputs", "inputs fed in raw, unstandardised units", [
        r"\bint16\b|\buint8\b|0[- ](?:to|-)[- ]65535|(?:cast|convert)\w* (?:it |them )?to float and (?:feed|pass|use)",
        r"\braw\b.{0,30}(?:features?|inputs?|values?|pixels?|units|data|columns?)",
        r"unnormali[sz]ed|unscaled|un-?standardi[sz]ed|not (?:normali[sz]ed|standardi[sz]ed|scaled)|without (?:any )?(?:normali[sz]|standardi[sz]|scal|preprocess)\w*",
        r"0[- ]?(?:-|to)[- ]?255|pixel values|prices?\b|dollars|salar\w*|counts? (?:in|of)|in (?:meters|kilometers|years|seconds|thousands|millions)",
        r"(?:features?|columns?|inputs?).{0,40}(?:range|scale|magnitude)s?.{0,20}(?:differ|vary|from|between|wildly|orders of magnitude)",
    ]),
    ("simple_model_works", "a simpler model does well on the same data", [
        r"(?:tree|xgboost|lightgbm|catboost|random forest|logistic regression|linear (?:model|regression)|sklearn|scikit|gradient[- ]boost\w*|svm|baseline|shallow (?:version|model|network|net)).{0,60}(?:does|works?|gets?|reaches|fine|well|better|solves?|trains?|learns?)",
    ]),
    ("deep_network", "a deep or long-recurrent network", [
        r"\bdeep\b|many layers|\b\d{2,} layers|stack\w* of (?:many|\d+)|long sequences?|recurren\w*|\brnn\b|\blstm\b|\bgru\b",
    ]),
    ("edits_no_effect", "code or data changes have no effect", [
        r"(?:change|edit|modification|fix|update)\w*.{0,50}(?:no|zero|not any|without any) (?:visible )?effect",
        r"(?:exactly|precisely|just) (?:the )?same as before|behaves? exactly (?:as|like) before|nothing changes?|(?:same|identical) (?:loss curve|numbers|results).{0,30}(?:as before|before and after|to the \w+ decimal)",
        r"(?:ignores?|ignoring) my (?:changes|edits)",
        r"(?:changed|edited|updated|set|modified) .{0,60}(?:but|yet) .{0,40}still (?:receives?|gets?|sees?|uses?|shows?|loads?|reads?|produces?|has)\b",
    ]),
    ("cache_mentioned", "a cache of preprocessed data", [r"\bcach\w*|preprocessed (?:data|dataset|features)|pickle\w*|saved (?:dataset|features|tensors)|memoi[sz]\w*|\.arrow|from disk"]),
    # --- loss construction and optimisation
    ("padding_mentioned", "padding in the sequences", [r"\bpad(?:ding|ded|s)?\b|\bpad[_ ]tokens?|attention_mask|ignore_index|(?:labels?|targets?|index)\s*(?:=|==|to|of|with|as)?\s*-100\b"]),
    ("loss_depends_padding", "the loss depends on how much padding a batch has", [
        r"(?:loss|perplexity|ppl).{0,60}(?:depend\w*|chang\w*|differ\w*|vary|varies|affect\w*|scal\w*|lower|higher).{0,50}(?:padding|pad\b|pad tokens|sequence length|max_length|padded length|length of the (?:batch|sequences?)|longest)",
        r"(?:padding|pad tokens?|padded positions?).{0,50}(?:count\w*|includ\w*|contribut\w*|dominat\w*|part of|in) (?:the |in the )?loss",
        r"(?:predict\w*|generat\w*|output\w*) (?:only |mostly |lots of )?(?:pad|padding|eos|<pad>|end[- ]of[- ]sequence)",
        r"(?:loss|perplexity|ppl).{0,60}\d.{0,20}when .{0,40}\bpads?\b|\bpads? .{0,60}(?:loss|perplexity|ppl) (?:is|of|=)",
        r"(?:max_length|padding length|pad length|padded length|sequence length).{0,60}(?:loss|perplexity|ppl).{0,30}(?:go\w* down|drop\w*|lower|higher|chang\w*|ris\w*|fell|fall\w*)",
        r"(?:short|long)(?:er)? (?:sentences|sequences|texts|inputs|examples).{0,60}(?:much )?(?:lower|higher|smaller|larger) (?:loss|perplexity)",
    ]),
    ("grad_accum", "gradient accumulation", [r"(?:grad\w*|gradient)[ _-]?accum\w*|accumulat\w* (?:gradients|steps|over)|accumulation steps|micro-?batch\w*|effective batch"]),
    ("scales_with_count", "the loss or update grows with the number of accumulated (micro)batches", [
        r"(?:loss|grad\w*|update|step size|norm)\w*.{0,60}(?:scal\w*|grow\w*|bigger|larger|multipl\w*|proportional|times|x)\b.{0,40}(?:accumulat\w*|number of (?:micro-?)?(?:batches|steps)|micro-?batch\w*|steps)",
        r"(?:more|increas\w*) (?:the )?(?:accumulation|micro-?batch\w*) steps?.{0,60}(?:worse|diverg\w*|unstable|explod\w*|nan|larger|bigger|higher)",
    ]),
    ("lr_raised", "the learning rate was raised", [
        r"(?:learning rate|\blr\b).{0,40}(?:increas\w*|rais\w*|higher|larger|bigger|bump\w*|doubl\w*|\d+ ?x (?:higher|larger))",
        r"(?:increas\w*|rais\w*|bump\w*|doubl\w*).{0,20}(?:learning rate|\blr\b)",
        r"(?:fewer|less) gpus|(?:smaller|reduced) (?:total |global |effective )?batch.{0,50}(?:same|kept|unchanged) (?:learning rate|lr)|(?:same|kept|unchanged|default) (?:learning rate|lr).{0,60}(?:smaller|fewer|single|one) (?:batch|gpu)",
    ]),
    ("lr_no_help", "changing the learning rate does not help", [
        r"(?:learning rate|\blr\b).{0,60}(?:no difference|n't help|not help|no effect|nothing|same)",
    ]),
    ("lr_lowered", "the learning rate was lowered or is very small", [
        r"(?:learning rate|\blr\b).{0,40}(?:decreas\w*|lower\w*|reduc\w*|smaller|tiny|very small|too small|too low|\blow\b(?! (?:error|loss|value|accuracy|score)))",
        r"(?:lower\w*|reduc\w*|decreas\w*).{0,20}(?:learning rate|\blr\b)",
    ]),
    ("lr_collapses", "the learning rate decays to almost nothing too early", [
        r"(?:learning rate|\blr\b).{0,60}(?:collaps\w*|vanish\w*|almost (?:zero|0)|near(?:ly)? (?:zero|0)|decay\w* (?:too )?(?:fast|quickly|early)|drops? (?:to|too)|tiny after)",
        r"(?:scheduler|schedule|step_?lr|cosine|warm-?up).{0,60}(?:too (?:fast|quick\w*|early)|every (?:batch|step|iteration)|per (?:batch|step|iteration)|each (?:batch|step|iteration)|inside the (?:batch|inner) loop)",
        r"(?:learning rate|\blr\b).{0,40}(?:down|drop\w*|decay\w*|reduc\w*|cut) (?:by )?\d+ ?x after (?:just |only )?\d+ (?:iterations?|steps?|batches|updates)",
        r"(?:whole|entire|full) (?:cycle|schedule|decay|warm-?up).{0,40}(?:in|within) (?:the )?first",
    ]),
    ("lr_never_changes", "the logged learning rate never follows its schedule", [
        r"(?:learning rate|\blr\b).{0,40}(?:stays?|remains?|stuck|constant|flat|unchanged) (?:at )?.{0,40}(?:for )?(?:all|every|the whole|the entire)|(?:learning rate|\blr\b).{0,40}\b(?:flat|constant)(?: line)?\b.{0,80}\b(?:although|even though|though|despite|but)\b.{0,40}(?:\b|_)(?:decay|schedul\w*|gamma|warm-?up)",
        r"(?:drops?|decays?|steps?|milestones?|warm-?up|decrease\w*) (?:at [\d, and]+ )?(?:never|don't|do not|didn't|did not) (?:happen|occur|kick in|take effect)",
    ]),
    ("scheduler_mentioned", "a learning-rate scheduler", [r"schedul\w*|step_?lr|cosine|warm-?up|lr_scheduler|decay"]),
    ("aux_term_stuck", "one term of a combined loss does not improve", [
        r"(?:one|second|other|auxiliary|aux|kl|reconstruction|regulari[sz]\w*|classification|secondary) (?:loss|term|head|objective|task|branch)\w*.{0,80}(?:never|n't|not|stays?|stuck|flat|ignored|plateau\w*|no progress)",
        r"(?:flat|stuck|stays?|plateau\w*).{0,60}\bwhile\b.{0,40}\b(?:total|overall|combined|other|main) loss",
        r"dominat\w*",
    ]),
    ("multi_loss", "the loss is a sum of several terms", [r"(?:loss terms?|multi-?task|weighted sum|sum of (?:the |two |several )?loss\w*|auxiliary loss|loss weights?|\bkl\b|reconstruction (?:loss|term)|two losses|several losses)"]),
    ("rl_context", "reinforcement learning", [r"\b(?:rewards?|(?:episode|episodic|discounted|expected|cumulative) returns?|episodes?|polic(?:y|ies)|critic|actor|q[- ]?values?|value function|td[- ]?(?:target|error)|bellman|agent|env|ddpg|dqn|ppo|sac|a2c)\b"]),
    ("value_overestimates", "value estimates drift above any reachable return", [
        r"(?:\bvalue (?:estimates?|function|head|targets?|predictions?)|q[- ]?values?|critic|\bestimates?|\bvalues? of (?:the )?(?:states?|critic))\b.{0,50}(?:drift\w*|explod\w*|diverg\w*|overestimat\w*|too high|grow\w*|far above|keeps? (?:rising|increasing|growing)|unbounded)",
    ]),
    ("terminal_mentioned", "episode ends / done flags", [r"\b(?:(?<!training is )(?<!training was )(?<!it is )(?<!it was )(?<!I'm )(?<!I am )(?<!we're )(?<!get )(?<!got )done|dones|terminal|terminat\w*|end of (?:the |an )?episode|episode (?:boundar\w*|ends?)|truncat\w*|(?<!\[)mask(?!\s*r-?cnn|\])|crash\w*|game over|dies|death|goal state|last (?:step|transition) of)\b"]),
    ("custom_op", "a custom autograd function or hand-written backward", [
        r"custom (?:backward|gradient|autograd|op|function|kernel|activation|cuda)|autograd\.function|hand[- ]?written (?:backward|gradient)|fused (?:op|kernel|activation)|triton|straight[- ]through|own backward|gradcheck",
    ]),
    ("metric_loss_disagree", "the loss improves while the logged metric does not", [
        LOSSW + r".{0,60}(?:decreas\w*|goes down|fall\w*|improv\w*|fine|good|drops?).{0,80}" + ACCW + r".{0,40}(?:stuck|flat|n't|not|stays?|never|constant|same|around)",
        ACCW + r".{0,40}(?:stuck|flat|stays?|constant).{0,60}(?:while|but|although|even though).{0,30}" + LOSSW,
        ACCW + r".{0,40}(?:going down|drop\w*|fall\w*|decreas\w*|worse).{0,100}(?:while|but|although|even though).{0,110}" + LOSSW + r".{0,20}(?:fall\w*|decreas\w*|going down|improv\w*|drop\w*)",
    ]),
    ("metric_recomputed_differs", "the same metric computed another way gives a different number", [
        r"(?:reports?|logs?|shows?|prints?|says?|gives?) .{0,30}\d.{0,60}\bbut\b.{0,60}(?:sklearn|scikit|torchmetrics|by hand|manually|recomput\w*|reference|my own|independent\w*).{0,40}\d",
        r"(?:sklearn|scikit|torchmetrics|by hand|manually|recomput\w*).{0,60}(?:gives?|says?|reports?|shows?|gets?|is) .{0,20}\d.{0,60}(?:instead|but|while|whereas)",
        r"(?:labels?|targets?|ground truth) (?:in )?as (?:the )?predictions.{0,80}(?:instead of|not|rather than|only) ",
        r"(?:confusion matrix|from the same predictions)\b.{0,120}(?:\bget\b|gives?|comes? out|differ\w*|doesn't match|does not match|disagree\w*)", r"\d.{0,80}\b(?:while|but|whereas|however)\b.{0,80}(?:by hand|manually|recomput\w*|sklearn|scikit|torchmetrics).{0,40}(?:gives?|says?|shows?|gets?|is|comes? out) .{0,20}\d",
    ]),
    ("metric_code_mentioned", "the metric or logging code", [r"(?:metric|accuracy) (?:code|function|computation|calculation)|\blogg\w*|tensorboard|wandb|dashboard|torchmetrics"]),
    ("recent_change", "it started after a code change", [
        r"after (?:a |the |my |our |some )?(?:small |recent |minor )?(?:refactor\w*|rewrit\w*|clean\w*|tidy\w*|simplif\w*|chang\w*|upgrad\w*|switch\w*|edit\w*|port\w*|migrat\w*|updat\w*|add\w*|remov\w*|mov\w*)",
        r"since (?:i|we) (?:changed|added|switched|made|moved|removed|refactored|updated|rewrote|upgraded)",
        r"(?:used to|previously|before the change|old (?:version|notebook|code)|worked (?:before|fine before|in the old)|\bregress(?:ed|es)\b|\ba regression (?:since|after|from|in)\b)",
    ]),
    ("healthy_request", "a request for a check with no failure described", [
        r"(?:anything|something) (?:suspicious|off|odd|wrong|i'm missing)\s*\?|(?:can|could) you confirm|looks? (?:healthy|fine|normal|ok|good|reasonable) to me|is this (?:normal|expected|fine|ok)\s*\?",
        r"(?:like|want|need) a check|nothing .{0,40}(?:quietly )?(?:wrong|broken)|sanity[- ]check|(?:make|making) sure|want (?:a|to) (?:check|be sure|verify)|double[- ]check|before (?:i|we) (?:scale|start|spend|launch)|is (?:anything|something) (?:quietly )?(?:wrong|broken)",
    ]),
]

# "Mention" facts that a negation in front cancels ("no batch norm", "without dropout").
NEGATABLE = frozenset({
    "mentions_dropout", "mentions_batchnorm", "padding_mentioned", "cache_mentioned", "scheduler_mentioned",
    "grad_accum", "attention_mentioned", "custom_op", "multi_loss", "deep_network", "non_torch_op",
    "freeze_mentioned", "init_mentioned", "mask_mentioned", "zero_grad_mentioned", "terminal_mentioned",
    "user_says_overfits", "user_says_underfits", "too_good", "diverges", "loss_unstable", "data_overlap",
})
NEGATION = r"(?:\b(?:no|without|not using|not(?!\s+the\b)|removed|disabled|never used|there's no|nothing(?: is| was| looks| seems)?|no signs? of|free of)|n't(?: \w+)?)\s+(?:any\s+)?(?:(?:\w+\s+)?(?:like|such as)\s+)?(?:\w+\s+(?:or\s+|nor\s+)?)?$"

# A rule does not fire on a sentence that also matches its exception (the same words mean something else there).
EXCEPT: dict[str, str] = {
    "too_good": r"(?:anything|something) suspicious\s*\?",
    "simple_model_works": r"linear (?:model|regression|classifier) (?:on|for) (?:a |an )?(?:clearly |highly |strongly |very )?non-?linear",
    "weights_static": r"\b(?:barely|hardly|slightly|a little|a tiny bit)\b|\b(?:supposed|meant|expected|intended) to (?:stay|remain|be)\b|\bfrozen (?:\w+'?s? ){0,2}(?:conv |linear )?(?:weights?|param\w*)\b.{0,20}\b(?:are|stay|remain)\w* (?:identical|unchanged|the same)",
    "val_worsens": r"(?:never|doesn't|does not|didn't|did not|won't|not) (?:turns?|goes|go|going|went|rise|rises|increase|increases|get worse|gets worse) (?:up|upward)?",
    "lr_lowered": r"no difference|n't help|not help|no effect|only (?:works|goes down|trains|converges|learns|is stable|decreases)",
    "short_training": r"learning rate|\blr\b|schedul",
    "train_improves": TRAIN + NOTVAL + r"{0,40}" + LOSSW + NOTVAL + r"{0,30}(?:(?:stopped|stops|no longer|ceased) (?:\w+ )?|(?:does not|doesn't|did not|didn't|won't|is not|isn't|never)(?: \w+){0,2} )(?:improv|decreas|go(?:ing)? down|fall|drop)" + r"|(?:shouldn'?t|should|able to|can'?t|cannot|unable to)\b.{0,20}\bfit the train",  # fitting asked about, not seen
    "healthy_request": r"\b(?:yet|but|however|instead)\b|\bcheck(?:ed|ing)?\b[^.?!]{0,60}(?::|\band (?:they|it|that)\b|\band the \w+ (?:is|are|was|were|has|had|shows?|showed|gives?|gave)\b)\s*\S",  # or the check's result follows ("I checked the indices: 6 are shared")
    "eval_nondeterministic": r"\bbatch|\bat different (?:training )?steps\b|compared (?:with|to) (?:the |an? )?\S+ (?:version|implementation|optimi[sz]er)\b",  # the same example scoring differently across batches is batch coupling
    "loss_unstable": VAL + r".{0,20}" + ACCW + r"|" + VAL + r"\w* (?:numbers|results|scores)",
    "lr_raised": r"no difference|n't help|not help|no effect",
    "lr_no_help": r"(?:lower|smaller|reduc\w*|higher|larger)\b.{0,60}(?:is|runs?|becomes?|stays?) (?:\w+ )?(?:stable|fine)|(?:fix\w*|solv\w*|help\w*) (?:it|this|the)",
    "good_then_worse": r"(?:stays?|remains?|stuck|sits?) (?:\w+ )?(?:flat|constant|the same)|\bsits? (?:at|around|near)\b|plateau\w*|level\w* off|any (?:lower|better|further)\b|stops? (?:improving|decreasing|going down|falling)",
}
