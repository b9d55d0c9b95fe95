<?php
// Times PHP Twig 3.5 rendering the sample theme's page in-process, with its
// compiled-template cache warm and opcache on (run with
// php -d opcache.enable_cli=1). Prints the median of the runs in ms.
// Usage: php twig_bench.php THEME_DIR DATA.json RUNS [OUT.html]
require '/usr/share/php/Twig/autoload.php';

[$self, $theme, $dataFile, $runs] = $argv + [null, null, null, 50];
$cache = sys_get_temp_dir() . '/octavo-twig-bench-cache';
$twig = new \Twig\Environment(new \Twig\Loader\FilesystemLoader($theme), [
    'autoescape' => 'name', 'cache' => $cache, 'strict_variables' => false,
]);
$twig->getExtension(\Twig\Extension\CoreExtension::class)->setTimezone('UTC');
$data = json_decode(file_get_contents($dataFile), true);
$out = $twig->render('page.html.twig', $data); // warm the cache
if (isset($argv[4])) {
    file_put_contents($argv[4], $out);
}
$times = [];
for ($i = 0; $i < (int)$runs; $i++) {
    $t0 = hrtime(true);
    $out = $twig->render('page.html.twig', $data);
    $times[] = (hrtime(true) - $t0) / 1e6;
}
sort($times);
$n = count($times);
$median = $n % 2 ? $times[intdiv($n, 2)] : ($times[$n / 2 - 1] + $times[$n / 2]) / 2;
printf("%.4f\n", $median);
