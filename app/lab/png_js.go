//go:build js

package lab

import "github.com/maxence-charriere/go-app/v10/pkg/app"

// pngDataURL is pix, w x h RGBA pixels, as a PNG data URL. The page takes
// its first picture from the prerendered page and never needs one; a
// figure of the bit array does, and the browser's canvas encodes it, so
// the WebAssembly carries no PNG encoder.
func pngDataURL(pix []byte, w, h int) string {
	if w <= 0 || h <= 0 || len(pix) < 4*w*h {
		return ""
	}
	win := app.Window()
	arr := win.Get("Uint8ClampedArray").New(4 * w * h)
	app.CopyBytesToJS(arr, pix[:4*w*h])
	canvas := win.Get("document").Call("createElement", "canvas")
	canvas.Set("width", w)
	canvas.Set("height", h)
	canvas.Call("getContext", "2d").Call("putImageData", win.Get("ImageData").New(arr, w, h), 0, 0)
	return canvas.Call("toDataURL", "image/png").String()
}
