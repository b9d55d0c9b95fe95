<?php
// Writes the benchmark page's data as JSON: a 2,000-entry table of contents
// and a chapter of 500 rendered paragraphs (about 460 KB of HTML in all).
// Deterministic: the same bytes on every run.
$words = explode(' ', 'the of and to in a is that for it as was with be by on not he this are or his from at which but have an they you were her she there been one all we their has would when if so no will can more about said what out up some into them only could time other than then now look like our most over such after also many through down should where way years good very how because much any those being under each well just before must great back same right again while');
$seed = 12345;
$rand = function (int $n) use (&$seed): int {
    $seed = ($seed * 1103515245 + 12345) & 0x7fffffff;
    return $seed % $n;
};
$sentence = function (int $n) use ($words, $rand): string {
    $s = [];
    for ($i = 0; $i < $n; $i++) {
        $s[] = $words[$rand(count($words))];
    }
    return ucfirst(implode(' ', $s));
};
$toc = [];
$chapter = 0; $section = 0;
for ($i = 0; $i < 2000; $i++) {
    $level = $i % 8 === 0 ? 1 : ($i % 3 === 0 ? 3 : 2);
    if ($level === 1) { $chapter++; $section = 0; $label = "Chapter $chapter"; }
    else { $section++; $label = $level === 2 ? "$chapter.$section" : ''; }
    $title = $sentence(3 + $rand(4));
    if ($i % 50 === 7) { $title .= ' & "friends" <b>'; }
    $toc[] = ['level' => $level, 'label' => $label, 'title' => $title,
              'slug' => 'sec-' . ($i + 1)];
}
$paragraphs = [];
for ($i = 0; $i < 500; $i++) {
    $p = '<p>' . $sentence(62) . ', <em>' . $sentence(6) . '</em> ' . $sentence(52) . '.</p>';
    $paragraphs[] = $p;
}
$data = [
    'book' => ['title' => 'The Benchmark Book', 'author' => 'A. Writer',
               'language' => 'en', 'publication_date' => '2026-03-01'],
    'edition' => ['format' => 'html', 'toc_deep' => 3,
                  'styles' => ['css/styles.css', 'css/print.css']],
    'labels' => ['toc' => 'Contents'],
    'item' => ['title' => 'A Long Chapter', 'label' => 'Chapter 7',
               'slug' => 'chapter-7', 'paragraphs' => $paragraphs],
    'toc' => $toc,
];
echo json_encode($data, JSON_PRETTY_PRINT | JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE), "\n";
