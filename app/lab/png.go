//go:build !js

package lab

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
)

// pngDataURL is pix, w x h RGBA pixels, as a PNG data URL: the server
// draws the first view's picture with it (the live page never needs it,
// so the WebAssembly carries no PNG encoder).
func pngDataURL(pix []byte, w, h int) string {
	img := &image.NRGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&b, img); err != nil {
		return ""
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}
