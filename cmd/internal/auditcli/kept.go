package auditcli

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/bloomlab/bloomlab/audit"
)

// A directory of kept filters (--keep DIR, --against DIR) holds, for each
// round-trip filter, NAME.filter (what the target's Save wrote) and
// NAME.keys (its members, each a uvarint length and the key's bytes), and
// kept.json, which names them with the shape, the target and the lab that
// kept them. The keys are kept themselves, not how to derive them, so a
// later lab that derives its keys otherwise still asks for these.
const keptManifest = "kept.json"

// keptFile is kept.json.
type keptFile struct {
	Target  string       `json:"target"`
	Lab     string       `json:"lab"`
	Filters []keptFilter `json:"filters"`
}

type keptFilter struct {
	Name string `json:"name"`
	M    uint64 `json:"m"`
	K    int    `json:"k"`
	N    int    `json:"n"`
	Seed uint64 `json:"seed"`
	File string `json:"file"`
	Keys string `json:"keys"`
}

// writeKept saves t's round-trip filters and their keys into dir, which
// it makes if need be; lab names the lab that kept them.
func writeKept(dir string, t audit.Target, lab string) error {
	kept, err := audit.Keep(t)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	manifest := keptFile{Target: t.Name, Lab: lab}
	for _, k := range kept {
		f := keptFilter{Name: k.Name, M: k.Shape.M, K: k.Shape.K, N: k.Shape.N, Seed: k.Shape.Seed,
			File: k.Name + ".filter", Keys: k.Name + ".keys"}
		var keys []byte
		for _, key := range k.Keys {
			keys = binary.AppendUvarint(keys, uint64(len(key)))
			keys = append(keys, key...)
		}
		if err := os.WriteFile(filepath.Join(dir, f.File), k.File, 0o644); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, f.Keys), keys, 0o644); err != nil {
			return err
		}
		manifest.Filters = append(manifest.Filters, f)
	}
	b, err := json.MarshalIndent(manifest, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, keptManifest), append(b, '\n'), 0o644)
}

// readKept reads the filters kept in dir, and says who kept them for the
// checks' contracts.
func readKept(dir string) ([]audit.Kept, string, error) {
	b, err := os.ReadFile(filepath.Join(dir, keptManifest))
	if err != nil {
		return nil, "", fmt.Errorf("%s holds no kept filters (%s from --keep): %w", dir, keptManifest, err)
	}
	var manifest keptFile
	if err := json.Unmarshal(b, &manifest); err != nil {
		return nil, "", fmt.Errorf("%s: %w", filepath.Join(dir, keptManifest), err)
	}
	if len(manifest.Filters) == 0 {
		return nil, "", fmt.Errorf("%s lists no filters", filepath.Join(dir, keptManifest))
	}
	var kept []audit.Kept
	for _, f := range manifest.Filters {
		file, err := os.ReadFile(filepath.Join(dir, filepath.Base(f.File)))
		if err != nil {
			return nil, "", err
		}
		raw, err := os.ReadFile(filepath.Join(dir, filepath.Base(f.Keys)))
		if err != nil {
			return nil, "", err
		}
		keys, err := splitKeys(raw)
		if err != nil {
			return nil, "", fmt.Errorf("%s: %w", filepath.Join(dir, f.Keys), err)
		}
		kept = append(kept, audit.Kept{Name: f.Name, Shape: audit.Shape{M: f.M, K: f.K, N: f.N, Seed: f.Seed}, Keys: keys, File: file})
	}
	return kept, fmt.Sprintf("kept by %s with %s", manifest.Target, manifest.Lab), nil
}

// splitKeys reads keys written as a uvarint length and the bytes.
func splitKeys(b []byte) ([][]byte, error) {
	var keys [][]byte
	for len(b) > 0 {
		n, size := binary.Uvarint(b)
		if size <= 0 || n > uint64(len(b)-size) {
			return nil, errors.New("a key's length runs past the end of the file")
		}
		keys = append(keys, b[size:size+int(n)])
		b = b[size+int(n):]
	}
	return keys, nil
}
