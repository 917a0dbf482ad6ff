"""Agreement and correctness checks against outside tools and other hardware: exports against aiayn
(Hugging Face Marian, CTranslate2), number formats against float32, the CUDA paths against the CPU in
float64, the chorale grade against music21. They print and record what agrees; ``benchmarks/`` times."""
