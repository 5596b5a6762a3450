package ui

import (
	"strings"
	"sync"

	"github.com/bloomlab/bloomlab/app/settings"

	"github.com/maxence-charriere/go-app/v10/pkg/app"
)

// Shell is the frame every page shares: the masthead with the navigation,
// the page's content, and a footer. Pages build it with
//
//	NewShell().Route(RouteLab).LargeType(on).Body(content...)
//
// It is a plain builder, not a component: a component holding the page's
// content would compare the whole tree by reflection on every update.
type Shell struct {
	active string
	large  bool
}

func NewShell() *Shell { return &Shell{} }

// Route marks the navigation entry for the current page.
func (s *Shell) Route(route string) *Shell { s.active = route; return s }

// LargeType switches on the projector mode: every size scales up.
func (s *Shell) LargeType(on bool) *Shell { s.large = on; return s }

// NavEntry is one page in the masthead's navigation.
type NavEntry struct{ Route, Label string }

// nav is the navigation, in order, as the app's page table gives it.
var nav []NavEntry

// SetNavigation sets the masthead's entries; the app calls it once, from
// its page table, as it registers the routes.
func SetNavigation(entries []NavEntry) { nav = entries }

// Body returns the page: the frame around content.
func (s *Shell) Body(content ...app.UI) app.UI {
	class := "shell"
	if s.large {
		class += " large-type"
	}
	return app.Div().Class(class).Body(
		// A pause before the page's first element: go-app's start (its
		// engine, the page's route and first render) and the mount of the
		// shell are then two tasks.
		&Yield{},
		// The skip link is the first stop of Tab: it moves the focus to the
		// page's content, past the navigation. web/early.js follows it, as
		// go-app would take it for a navigation.
		app.A().ID(IDSkipLink).Class("skip-link").Href("#"+IDMain).Text("Skip to content"),
		app.Header().Class("masthead").Body(
			app.A().Class("brand").Href(s.link(RouteLab)).Text("Bloom Lab"),
			app.Nav().Aria("label", "Pages").Body(
				app.Ul().Body(
					app.Range(nav).Slice(func(i int) app.UI {
						e := nav[i]
						a := app.A().Href(s.link(e.Route)).Text(e.Label)
						if e.Route == s.active {
							a = a.Aria("current", "page").Class("active")
						}
						return app.Li().Body(a)
					}),
				),
			),
		),
		app.Main().ID(IDMain).TabIndex(-1).Body(content...),
		app.Footer().Class("footer").Body(
			app.Text("Bloom Lab: a Bloom filter you can watch, measure and audit. Same seed, same bits, in every browser."),
		),
		LiveMark(),
	)
}

// IDs of the shell's skip link and of the page's main content it jumps to.
const (
	IDSkipLink = "skip-link"
	IDMain     = "main"
)

// link is a navigation address: a route under the site's prefix that keeps
// the large-type mode on from page to page, as every page reads it from
// its query.
func (s *Shell) link(route string) string {
	if s.large {
		return Href(route) + "?" + settings.IDLarge + "=on"
	}
	return Href(route)
}

// rootPrefix is the site's path prefix, read once: it asks the page.
var rootPrefix = sync.OnceValue(func() string { return strings.TrimRight(app.Getenv("GOAPP_ROOT_PREFIX"), "/") })

// Origin is the site the page came from ("https://example.org"), for
// the links a figure or a snippet carries off the site; "" when
// prerendering, which cannot know it.
func Origin() string {
	if !app.IsClient {
		return ""
	}
	u := app.Window().URL()
	return u.Scheme + "://" + u.Host
}

// Href turns an app route into a link under the site's path prefix (a
// project site on GitHub Pages lives under /repository-name). When
// prerendering, go-app's resolver adds the prefix to every link itself; in
// the browser it does not, so the prefix is added here.
func Href(route string) string {
	if app.IsServer {
		return route
	}
	prefix := rootPrefix()
	if route == "/" {
		return prefix + "/"
	}
	return prefix + route
}
