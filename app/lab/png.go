//go:build !js

package lab

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/png"
)

// pngDataURL is pix, w x h RGBA pixels, as a PNG data URL: the server
// draws the first view's picture with it (the live page never needs it,
// so the WebAssembly carries no PNG encoder). The picture has a handful
// of colours, the bit array's few states, so it goes with a palette: one
// byte a pixel instead of four, which deflate packs at its default level
// in about half the bytes the four-byte image took at its best, and in a
// tenth of the time (the best level was most of a fresh link's
// prerender, 50 to 120 ms).
func pngDataURL(pix []byte, w, h int) string {
	var img image.Image = &image.NRGBA{Pix: pix, Stride: 4 * w, Rect: image.Rect(0, 0, w, h)}
	if p := paletted(pix, w, h); p != nil {
		img = p
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		return ""
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(b.Bytes())
}

// paletted is pix, w x h RGBA pixels, as a paletted image, its colours in
// the order they first appear (so the same pixels make the same bytes);
// nil if pix has more colours than a palette holds.
func paletted(pix []byte, w, h int) *image.Paletted {
	out := image.NewPaletted(image.Rect(0, 0, w, h), nil)
	index := map[[4]byte]uint8{}
	var last [4]byte
	var j uint8
	for i := range w * h {
		px := [4]byte(pix[4*i : 4*i+4])
		if i == 0 || px != last {
			k, ok := index[px]
			if !ok {
				if len(out.Palette) == 256 {
					return nil
				}
				k = uint8(len(out.Palette))
				index[px] = k
				out.Palette = append(out.Palette, color.NRGBA{px[0], px[1], px[2], px[3]})
			}
			last, j = px, k
		}
		out.Pix[i] = j
	}
	return out
}
