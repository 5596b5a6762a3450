package lessonfile

// Template is the lesson "bloomlab lesson new" prints: two steps, one
// with a slider and one with a choice, that pass the checker and whose
// show-me states do their tasks (tested in app/lessons), and a step to
// read, for a teacher to write over.
const Template = `# Your lesson's title

One paragraph on what the lesson is about. Every step below starts
with ## and has its text, then its fields, one a line: show: (the
lab's settings, as a link's query), task: and done: (a sentence and
the condition that says it is done; a step without them is one to
read), and, if you like, a prediction from predict: on. Check it with:
bloomlab lesson check FILE.

## Step 1

Every key sets up to k bits, so fewer bits per key means a *fuller*
array. Lower bits per key from 10 to 6 and watch the fill in the
counters.

show: bits-per-key=6
task: Lower bits per key until more than 60% of the bits are ones.
done: fill > 60%

predict: At 6 bits per key and k = 7, what share of the bits will be ones?
slider: 0 to 100 by 1
start: 50
tolerance: 5
unit: %
answer: 100 * fill
why: 7 bits for every 6 leave about e^-1.2, 31%, of the bits zero: the fill is about 69%.

## Step 2

A maybe for a key never inserted is a false positive. Query words in
the key panel until one answers maybe; show me queries ` + "`want`" + `, the
first of the panel's common words that does.

show:
ask: want
task: Find a key you never inserted that the filter answers maybe for.
done: answered-false-positive > 0

predict: Will "want", never inserted, answer no or maybe?
choice: No
choice: Maybe
answer: verdict("want") = no
why: Maybe: other keys set each of its 7 bits.
veil: answer

## Step 3

A step without task: and done: is one to read: it is done once the
learner has seen it. This one puts the lab back as it opens.

show:
`
