<?php
/*
 * Octavo template test suite -- PHP Twig oracle runner.
 *
 * Usage: php oracle.php [--show] CASE_FILE_OR_DIR...
 *
 * Every oracle-eligible case (no --SKIP-ORACLE-- section) is rendered with
 * the real Twig 3 (Debian php-twig) and compared byte for byte with its
 * --EXPECT-- section.  For --EXCEPTION-- cases Twig must fail as well (any
 * message).  Prints one line per failing case followed by a diff, then the
 * summary line "N passed, N failed, N skipped"; exits 1 on any failure.
 *
 * --show   also print Twig's actual output (or error) for every case;
 *          handy when writing new cases.
 */

require '/usr/share/php/Twig/autoload.php';

date_default_timezone_set('UTC');

const SECTION_RE = '/^--(TEST|TEMPLATE|DATA|CONFIG|EXPECT|EXCEPTION|SKIP-ORACLE)(?:\(([^()]+)\))?--$/';

/** Parse a .test file into an array; throws on malformed files. */
function parse_case(string $file): array
{
    $src = file_get_contents($file);
    if ($src === false) {
        throw new RuntimeException("cannot read $file");
    }
    $lines = preg_split('/(?<=\n)/', $src); // keep the "\n" on each line
    $sections = [];
    $cur = null;
    foreach ($lines as $line) {
        if ($line === '') {
            continue;
        }
        $bare = rtrim($line, "\n");
        if (preg_match(SECTION_RE, $bare, $m)) {
            $sections[] = ['kind' => $m[1], 'name' => $m[2] ?? '', 'text' => ''];
            $cur = count($sections) - 1;
            continue;
        }
        if ($cur === null) {
            throw new RuntimeException("$file: text before the first section header");
        }
        $sections[$cur]['text'] .= $line;
    }
    $case = [
        'file' => $file, 'title' => null, 'templates' => [], 'data' => [],
        'config' => [], 'expect' => null, 'exception' => null, 'skip' => null,
    ];
    foreach ($sections as $s) {
        // The final newline of a section is not part of its text.
        $text = $s['text'];
        if (substr($text, -1) === "\n") {
            $text = substr($text, 0, -1);
        }
        switch ($s['kind']) {
            case 'TEST':
                $case['title'] = trim($text);
                break;
            case 'TEMPLATE':
                $name = $s['name'] === '' ? 'index.twig' : $s['name'];
                if (isset($case['templates'][$name])) {
                    throw new RuntimeException("$file: template $name defined twice");
                }
                $case['templates'][$name] = $text;
                break;
            case 'DATA':
                if (trim($text) !== '') {
                    $d = json_decode($text, true, 512, JSON_THROW_ON_ERROR);
                    if (!is_array($d)) {
                        throw new RuntimeException("$file: --DATA-- must be a JSON object");
                    }
                    $case['data'] = $d;
                }
                break;
            case 'CONFIG':
                if (trim($text) !== '') {
                    $case['config'] = json_decode($text, true, 512, JSON_THROW_ON_ERROR);
                }
                break;
            case 'EXPECT':
                $case['expect'] = $text;
                break;
            case 'EXCEPTION':
                $case['exception'] = trim($text);
                break;
            case 'SKIP-ORACLE':
                $case['skip'] = trim($text) === '' ? '(no reason given)' : trim($text);
                break;
        }
    }
    if ($case['title'] === null) {
        throw new RuntimeException("$file: missing --TEST--");
    }
    if (!isset($case['templates']['index.twig'])) {
        throw new RuntimeException("$file: missing --TEMPLATE--");
    }
    if (($case['expect'] === null) === ($case['exception'] === null)) {
        throw new RuntimeException("$file: needs exactly one of --EXPECT-- / --EXCEPTION--");
    }
    if ($case['exception'] !== null
        && !preg_match('/^[^:\s]+:\d+:\d+: error: .+$/', $case['exception'])) {
        throw new RuntimeException("$file: --EXCEPTION-- must be 'FILE:LINE:COL: error: MESSAGE'");
    }
    return $case;
}

function make_env(array $case): \Twig\Environment
{
    $cfg = $case['config'];
    $ae = $cfg['autoescape'] ?? 'name';
    if ($ae === 'name') {
        $ae = ['\Twig\FileExtensionEscapingStrategy', 'guess'];
    }
    $twig = new \Twig\Environment(new \Twig\Loader\ArrayLoader($case['templates']), [
        'autoescape' => $ae,
        'strict_variables' => (bool) ($cfg['strict_variables'] ?? false),
        'cache' => false,
        'debug' => false,
    ]);
    $twig->addExtension(new \Twig\Extension\DebugExtension());
    $twig->getExtension(\Twig\Extension\CoreExtension::class)->setTimezone('UTC');
    return $twig;
}

/** Render a case; returns [ok(bool), output-or-error-message]. */
function run_case(array $case): array
{
    set_error_handler(function ($no, $str, $file, $line) {
        throw new ErrorException($str, 0, $no, $file, $line);
    });
    try {
        $twig = make_env($case);
        $out = $twig->render('index.twig', $case['data']);
        return [true, $out];
    } catch (\Throwable $e) {
        return [false, get_class($e) . ': ' . $e->getMessage()];
    } finally {
        restore_error_handler();
    }
}

/** Small LCS line diff: returns lines prefixed with ' ', '-', '+'. */
function line_diff(string $expected, string $actual): array
{
    $a = explode("\n", $expected);
    $b = explode("\n", $actual);
    $n = count($a);
    $m = count($b);
    if ($n * $m > 250000) {
        return array_merge(array_map(fn($l) => "-$l", $a), array_map(fn($l) => "+$l", $b));
    }
    $L = array_fill(0, $n + 1, array_fill(0, $m + 1, 0));
    for ($i = $n - 1; $i >= 0; $i--) {
        for ($j = $m - 1; $j >= 0; $j--) {
            $L[$i][$j] = $a[$i] === $b[$j] ? $L[$i + 1][$j + 1] + 1 : max($L[$i + 1][$j], $L[$i][$j + 1]);
        }
    }
    $out = [];
    $i = $j = 0;
    while ($i < $n || $j < $m) {
        if ($i < $n && $j < $m && $a[$i] === $b[$j]) {
            $out[] = ' ' . $a[$i];
            $i++;
            $j++;
        } elseif ($j < $m && ($i >= $n || $L[$i][$j + 1] >= $L[$i + 1][$j])) {
            $out[] = '+' . $b[$j++];
        } else {
            $out[] = '-' . $a[$i++];
        }
    }
    return $out;
}

function visible(string $s): string
{
    // make trailing whitespace / control characters visible in diffs
    return addcslashes($s, "\0..\x09\x0b..\x1f\x7f");
}

function collect(string $path, array &$files): void
{
    if (is_dir($path)) {
        $it = new RecursiveIteratorIterator(new RecursiveDirectoryIterator($path, FilesystemIterator::SKIP_DOTS));
        $found = [];
        foreach ($it as $f) {
            if ($f->isFile() && substr($f->getFilename(), -5) === '.test') {
                $found[] = $f->getPathname();
            }
        }
        sort($found);
        foreach ($found as $f) {
            $files[] = $f;
        }
    } elseif (is_file($path)) {
        $files[] = $path;
    } else {
        fwrite(STDERR, "oracle.php: no such file or directory: $path\n");
        exit(2);
    }
}

if (realpath($_SERVER['SCRIPT_FILENAME'] ?? '') !== __FILE__) {
    return; // included as a library
}

$args = array_slice($argv, 1);
$show = false;
$files = [];
foreach ($args as $arg) {
    if ($arg === '--show') {
        $show = true;
        continue;
    }
    collect($arg, $files);
}
if (!$files) {
    fwrite(STDERR, "usage: php oracle.php [--show] CASE_FILE_OR_DIR...\n");
    exit(2);
}

$passed = $failed = $skipped = 0;
foreach ($files as $file) {
    try {
        $case = parse_case($file);
    } catch (\Throwable $e) {
        echo "FAIL $file: malformed case: {$e->getMessage()}\n";
        $failed++;
        continue;
    }
    if ($case['skip'] !== null) {
        $skipped++;
        if ($show) {
            echo "SKIP $file: {$case['skip']}\n";
        }
        continue;
    }
    [$ok, $result] = run_case($case);
    if ($show) {
        echo "---- $file (" . ($ok ? 'output' : 'error') . ")\n" . $result . "\n";
    }
    if ($case['exception'] !== null) {
        if ($ok) {
            echo "FAIL $file: expected an error ({$case['exception']}), Twig rendered:\n";
            foreach (explode("\n", $result) as $l) {
                echo '  +' . visible($l) . "\n";
            }
            $failed++;
        } else {
            $passed++;
        }
        continue;
    }
    if (!$ok) {
        echo "FAIL $file: Twig error: $result\n";
        $failed++;
        continue;
    }
    if ($result === $case['expect']) {
        $passed++;
        continue;
    }
    echo "FAIL $file: output differs (-expected +actual)\n";
    foreach (line_diff($case['expect'], $result) as $l) {
        echo '  ' . visible($l) . "\n";
    }
    $failed++;
}

echo "$passed passed, $failed failed, $skipped skipped\n";
exit($failed ? 1 : 0);
