package lessonfile

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/bloomlab/bloomlab/core/keys"
)

// MaxTerms bounds a condition's terms joined by "and".
const MaxTerms = 12

// Operand is one side of a comparison: a plain Number, or Factor times a
// quantity (with its argument, if it takes one).
type Operand struct {
	Quantity string
	// Arg is the argument in parentheses: a key, a number of hashes or
	// a filter ("" for none).
	Arg    string
	Factor float64
	Number float64
}

// Term is one test of a condition: a flag (Not: its negation), a
// comparison of two operands, or a name quantity (Left) compared to Word.
type Term struct {
	Not   bool
	Flag  string
	Left  Operand
	Op    string
	Right Operand
	Word  string
}

// Condition holds when all its terms do. Source is the text it was read
// from.
type Condition struct {
	Terms  []Term
	Source string
}

// Reads reports whether the condition reads quantity name.
func (c Condition) Reads(name string) bool {
	for _, t := range c.Terms {
		if t.Flag == name || t.Left.Quantity == name || t.Right.Quantity == name {
			return true
		}
	}
	return false
}

// Expr is a numeric answer: Factor times a quantity.
type Expr = Operand

// token is one word of a condition: an identifier, a number, a quoted
// key, an operator or punctuation.
type token struct {
	kind byte // 'i' ident, 'n' number, 's' string, 'o' operator, else the punctuation itself
	text string
}

// words are the patterns of a condition's words, compiled when the first
// condition is read rather than as the program starts: in the browser
// every page's start, the lab's too, paid about 24 ms for them at a 4x
// slowed CPU.
var words = sync.OnceValue(func() wordPatterns {
	return wordPatterns{
		ident:  regexp.MustCompile(`^[a-z][a-z0-9-]*`),
		number: regexp.MustCompile(`^[0-9][0-9,]*(\.[0-9]+)?%?`),
		op:     regexp.MustCompile(`^(<=|>=|!=|<|>|=)`),
		str:    regexp.MustCompile(`^"(\\.|[^"\\])*"`),
		// A number with its thousands separators in place.
		grouped: regexp.MustCompile(`^[0-9]{1,3}(,[0-9]{3})*(\.[0-9]+)?%?$`),
	}
})

type wordPatterns struct{ ident, number, op, str, grouped *regexp.Regexp }

// tokens splits a condition into its words.
func tokens(s string) ([]token, error) {
	var out []token
	for s = strings.TrimSpace(s); s != ""; s = strings.TrimSpace(s) {
		var t token
		switch m := ""; {
		case s[0] == '(' || s[0] == ')' || s[0] == '*':
			t = token{s[0], s[:1]}
		case func() bool { m = words().ident.FindString(s); return m != "" }():
			t = token{'i', m}
		case func() bool { m = words().number.FindString(s); return m != "" }():
			t = token{'n', m}
		case func() bool { m = words().op.FindString(s); return m != "" }():
			t = token{'o', m}
		case func() bool { m = words().str.FindString(s); return m != "" }():
			t = token{'s', m}
		case s[0] == '"':
			return nil, fmt.Errorf("a key in quotes is not closed: %s", clip(s))
		default:
			return nil, fmt.Errorf("%s is not a word of a condition (quantities are lowercase, like fill or answered-no)", clip(s))
		}
		out = append(out, t)
		s = s[len(t.text):]
	}
	return out, nil
}

// number reads a number: digits, thousands separators where they belong,
// a decimal point, and % for a hundredth.
func number(s string) (float64, error) {
	if strings.Contains(s, ",") && !words().grouped.MatchString(s) {
		return 0, fmt.Errorf("%s: commas in a number go every three digits (8,000)", s)
	}
	raw := strings.TrimSuffix(strings.ReplaceAll(s, ",", ""), "%")
	v, err := strconv.ParseFloat(raw, 64)
	if err != nil || math.IsInf(v, 0) {
		return 0, fmt.Errorf("%s is not a number", s)
	}
	if strings.HasSuffix(s, "%") {
		v /= 100
	}
	return v, nil
}

// clip is s shortened for an error.
func clip(s string) string {
	if len(s) > 24 {
		s = s[:24] + "..."
	}
	return strconv.Quote(s)
}

// parser reads tokens in order.
type parser struct {
	toks []token
	at   int
}

func (p *parser) peek() token {
	if p.at < len(p.toks) {
		return p.toks[p.at]
	}
	return token{}
}

func (p *parser) next() token { t := p.peek(); p.at++; return t }

// ParseCondition reads a condition: terms joined by "and".
func ParseCondition(s string) (Condition, error) {
	toks, err := tokens(s)
	if err != nil {
		return Condition{}, err
	}
	if len(toks) == 0 {
		return Condition{}, fmt.Errorf("the condition is empty")
	}
	p := &parser{toks: toks}
	c := Condition{Source: strings.TrimSpace(s)}
	for {
		if len(c.Terms) == MaxTerms {
			return Condition{}, fmt.Errorf("more than %d terms; a task is a sentence, its condition a few tests", MaxTerms)
		}
		t, err := p.term()
		if err != nil {
			return Condition{}, err
		}
		c.Terms = append(c.Terms, t)
		switch n := p.next(); {
		case n.kind == 0:
			return c, nil
		case n.kind != 'i' || n.text != "and":
			return Condition{}, fmt.Errorf("%s after a test: tests are joined by and", clip(n.text))
		}
	}
}

// ParseExpr reads a numeric answer: a quantity, or a number times one.
func ParseExpr(s string) (Expr, error) {
	toks, err := tokens(s)
	if err != nil {
		return Expr{}, err
	}
	p := &parser{toks: toks}
	e, err := p.operand()
	if err != nil {
		return Expr{}, err
	}
	if e.Quantity == "" {
		return Expr{}, fmt.Errorf("an answer reads a quantity of the lab, not a number alone")
	}
	if q, _ := Lookup(e.Quantity); q.Kind != Number {
		return Expr{}, fmt.Errorf("%s is not a number; a slider's answer is one", e.Quantity)
	}
	if n := p.next(); n.kind != 0 {
		return Expr{}, fmt.Errorf("%s after the answer: it is one quantity, or a number times one", clip(n.text))
	}
	return e, nil
}

// term reads one test.
func (p *parser) term() (Term, error) {
	var t Term
	if n := p.peek(); n.kind == 'i' && n.text == "not" {
		p.next()
		t.Not = true
	}
	left, err := p.operand()
	if err != nil {
		return Term{}, err
	}
	q, _ := Lookup(left.Quantity)
	if left.Quantity != "" && q.Kind == Flag {
		if left.Factor != 1 {
			return Term{}, fmt.Errorf("%s is true or false, not a number to multiply", q.Name)
		}
		t.Flag = q.Name
		return t, nil
	}
	if t.Not {
		return Term{}, fmt.Errorf("not goes before a flag (%s), not a comparison: write its opposite (< for >=)", flagNames())
	}
	op := p.next()
	if op.kind != 'o' {
		return Term{}, fmt.Errorf("%s wants a comparison after it (<, <=, >, >=, =, !=)", describe(left))
	}
	t.Left, t.Op = left, op.text
	if left.Quantity != "" && q.Kind == Name {
		if left.Factor != 1 {
			return Term{}, fmt.Errorf("%s is a name, not a number to multiply", q.Name)
		}
		if t.Op != "=" && t.Op != "!=" {
			return Term{}, fmt.Errorf("%s is a name: compare it with = or !=", q.Name)
		}
		w := p.next()
		if w.kind != 'i' || !contains(q.Words, w.text) {
			return Term{}, fmt.Errorf("%s is one of %s, not %s", q.Name, strings.Join(q.Words, ", "), clip(w.text))
		}
		t.Word = w.text
		return t, nil
	}
	right, err := p.operand()
	if err != nil {
		return Term{}, err
	}
	if rq, _ := Lookup(right.Quantity); right.Quantity != "" && rq.Kind != Number {
		return Term{}, fmt.Errorf("%s is not a number to compare with", rq.Name)
	}
	if left.Quantity == "" && right.Quantity == "" {
		return Term{}, fmt.Errorf("%s %s %s compares two numbers: a test reads a quantity of the lab", left.show(), t.Op, right.show())
	}
	t.Right = right
	return t, nil
}

// describe names an operand in an error.
func describe(o Operand) string {
	if o.Quantity == "" {
		return o.show()
	}
	return o.Quantity
}

func (o Operand) show() string {
	if o.Quantity == "" {
		return strconv.FormatFloat(o.Number, 'g', -1, 64)
	}
	return o.Quantity
}

// operand reads a number, a quantity, or a number times a quantity.
func (p *parser) operand() (Operand, error) {
	t := p.next()
	o := Operand{Factor: 1}
	if t.kind == 'n' {
		v, err := number(t.text)
		if err != nil {
			return Operand{}, err
		}
		if p.peek().kind != '*' {
			o.Number = v
			return o, nil
		}
		p.next()
		o.Factor = v
		t = p.next()
	}
	if t.kind != 'i' {
		if t.kind == 0 {
			return Operand{}, fmt.Errorf("the condition ends where a quantity or a number should be")
		}
		return Operand{}, fmt.Errorf("%s where a quantity or a number should be", clip(t.text))
	}
	q, ok := Lookup(t.text)
	if !ok {
		return Operand{}, fmt.Errorf("%s is not a quantity of the lab; the quantities are listed in the README", clip(t.text))
	}
	o.Quantity = q.Name
	if q.Arg == NoArg {
		if p.peek().kind == '(' {
			return Operand{}, fmt.Errorf("%s takes nothing in parentheses", q.Name)
		}
		return o, nil
	}
	if p.peek().kind != '(' {
		switch q.Arg {
		case FilterArg:
			return o, nil
		case KeyArg:
			return Operand{}, fmt.Errorf("%s names a key in parentheses: %s(\"cherry\")", q.Name, q.Name)
		}
		return Operand{}, fmt.Errorf("%s names a number of hashes in parentheses: %s(4)", q.Name, q.Name)
	}
	p.next()
	a := p.next()
	switch q.Arg {
	case KeyArg:
		key, err := strconv.Unquote(a.text)
		if a.kind != 's' || err != nil {
			return Operand{}, fmt.Errorf("%s names a key in double quotes: %s(\"cherry\")", q.Name, q.Name)
		}
		if err := keys.CheckTyped("the", []string{key}); err != nil {
			return Operand{}, fmt.Errorf("%s(%s): %v", q.Name, clip(key), err)
		}
		o.Arg = key
	case KArg:
		k, err := strconv.Atoi(a.text)
		if a.kind != 'n' || err != nil || k < 1 || k > 64 {
			return Operand{}, fmt.Errorf("%s takes a number of hashes from 1 to 64, not %s", q.Name, clip(a.text))
		}
		o.Arg = a.text
	case FilterArg:
		if a.kind != 'i' || !contains(Filters, a.text) {
			return Operand{}, fmt.Errorf("%s is narrowed by one of %s, not %s", q.Name, strings.Join(Filters, ", "), clip(a.text))
		}
		o.Arg = a.text
	}
	if p.next().kind != ')' {
		return Operand{}, fmt.Errorf("%s(%s wants its closing parenthesis", q.Name, a.text)
	}
	return o, nil
}

// flagNames lists the flags.
func flagNames() string {
	var out []string
	for _, q := range Vocabulary() {
		if q.Kind == Flag {
			out = append(out, q.Name)
		}
	}
	return strings.Join(out, ", ")
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
