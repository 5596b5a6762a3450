package lessons

import (
	"github.com/bloomlab/bloomlab/app/lessons/lessonfile"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// richText is a lesson's text as the page shows it: text nodes, the
// *emphasised* runs in em and the `code` runs in code. Nothing a lesson
// writes becomes HTML; "<b>" is shown as the four characters.
func richText(s string) []app.UI {
	var out []app.UI
	for _, sp := range lessonfile.Inline(s) {
		switch sp.Style {
		case "em":
			out = append(out, app.Em().Text(sp.Text))
		case "code":
			out = append(out, app.Code().Text(sp.Text))
		default:
			out = append(out, app.Text(sp.Text))
		}
	}
	return out
}
