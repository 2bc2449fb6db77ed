package chart

import (
	"image/color"

	"gonum.org/v1/plot/plotutil"
)

var (
	// Palette is the colour of Series.Color in both renderers.
	Palette        = plotutil.DefaultColors
	PublishedColor = color.RGBA{R: 190, G: 190, B: 190, A: 255}
)
