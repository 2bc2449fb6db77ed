package chart

import (
	"restbench/internal/report/model"
)

// Ref is one drawn chart: File is relative to the report folder,
// without extension (File.png and File.svg both exist).
type Ref struct {
	Title string
	File  string
}

// Drawn says which charts were drawn for what.
type Drawn struct {
	Exp map[*model.ExperimentReport][]Ref
	Run map[*model.RunReport][]Ref
	// Forest is the forest plot's file, relative to the report folder
	// (charts/forest.svg); "" when none was written.
	Forest string
}
