/**
 * Where Japanese guests live: all 47 prefectures, weighted by population (hundred-thousands),
 * each with a few real municipalities and the first three digits of their postal codes. Town
 * names are generic ones found all over Japan; the simulator does not pretend to be a gazetteer.
 */
export interface TPrefecture {
  name: string;
  weight: number;
  cities: readonly (readonly [name: string, postalPrefix: string])[];
}

export const PREFECTURES: readonly TPrefecture[] = [
  { name: '北海道', weight: 51, cities: [['札幌市中央区', '060'], ['函館市', '040'], ['旭川市', '070']] },
  { name: '青森県', weight: 12, cities: [['青森市', '030'], ['八戸市', '031']] },
  { name: '岩手県', weight: 12, cities: [['盛岡市', '020'], ['一関市', '021']] },
  { name: '宮城県', weight: 23, cities: [['仙台市青葉区', '980'], ['石巻市', '986']] },
  { name: '秋田県', weight: 9, cities: [['秋田市', '010']] },
  { name: '山形県', weight: 10, cities: [['山形市', '990'], ['鶴岡市', '997']] },
  { name: '福島県', weight: 18, cities: [['福島市', '960'], ['郡山市', '963'], ['いわき市', '970']] },
  { name: '茨城県', weight: 28, cities: [['水戸市', '310'], ['つくば市', '305']] },
  { name: '栃木県', weight: 19, cities: [['宇都宮市', '320'], ['小山市', '323']] },
  { name: '群馬県', weight: 19, cities: [['前橋市', '371'], ['高崎市', '370']] },
  { name: '埼玉県', weight: 73, cities: [['さいたま市大宮区', '330'], ['川口市', '332'], ['川越市', '350'], ['所沢市', '359']] },
  { name: '千葉県', weight: 63, cities: [['千葉市中央区', '260'], ['船橋市', '273'], ['柏市', '277'], ['浦安市', '279']] },
  {
    name: '東京都',
    weight: 140,
    cities: [
      ['千代田区', '100'], ['中央区', '104'], ['港区', '105'], ['新宿区', '160'], ['文京区', '112'],
      ['渋谷区', '150'], ['世田谷区', '154'], ['杉並区', '166'], ['練馬区', '176'], ['品川区', '140'],
      ['目黒区', '153'], ['江東区', '135'], ['八王子市', '192'], ['武蔵野市', '180'],
    ],
  },
  {
    name: '神奈川県',
    weight: 92,
    cities: [['横浜市西区', '220'], ['横浜市青葉区', '225'], ['川崎市中原区', '211'], ['相模原市', '252'], ['藤沢市', '251'], ['鎌倉市', '248']],
  },
  { name: '新潟県', weight: 22, cities: [['新潟市中央区', '951'], ['長岡市', '940']] },
  { name: '富山県', weight: 10, cities: [['富山市', '930']] },
  { name: '石川県', weight: 11, cities: [['金沢市', '920']] },
  { name: '福井県', weight: 8, cities: [['福井市', '910']] },
  { name: '山梨県', weight: 8, cities: [['甲府市', '400']] },
  { name: '長野県', weight: 20, cities: [['長野市', '380'], ['松本市', '390']] },
  { name: '岐阜県', weight: 20, cities: [['岐阜市', '500'], ['大垣市', '503']] },
  { name: '静岡県', weight: 36, cities: [['静岡市葵区', '420'], ['浜松市中央区', '430'], ['沼津市', '410']] },
  { name: '愛知県', weight: 75, cities: [['名古屋市中区', '460'], ['名古屋市千種区', '464'], ['豊田市', '471'], ['岡崎市', '444']] },
  { name: '三重県', weight: 17, cities: [['津市', '514'], ['四日市市', '510']] },
  { name: '滋賀県', weight: 14, cities: [['大津市', '520'], ['草津市', '525']] },
  { name: '京都府', weight: 25, cities: [['京都市中京区', '604'], ['京都市左京区', '606'], ['宇治市', '611']] },
  { name: '大阪府', weight: 88, cities: [['大阪市北区', '530'], ['大阪市中央区', '540'], ['堺市堺区', '590'], ['豊中市', '560'], ['吹田市', '564']] },
  { name: '兵庫県', weight: 54, cities: [['神戸市中央区', '650'], ['姫路市', '670'], ['西宮市', '662'], ['尼崎市', '660']] },
  { name: '奈良県', weight: 13, cities: [['奈良市', '630']] },
  { name: '和歌山県', weight: 9, cities: [['和歌山市', '640']] },
  { name: '鳥取県', weight: 5, cities: [['鳥取市', '680']] },
  { name: '島根県', weight: 7, cities: [['松江市', '690']] },
  { name: '岡山県', weight: 19, cities: [['岡山市北区', '700'], ['倉敷市', '710']] },
  { name: '広島県', weight: 28, cities: [['広島市中区', '730'], ['福山市', '720']] },
  { name: '山口県', weight: 13, cities: [['山口市', '753'], ['下関市', '750']] },
  { name: '徳島県', weight: 7, cities: [['徳島市', '770']] },
  { name: '香川県', weight: 9, cities: [['高松市', '760']] },
  { name: '愛媛県', weight: 13, cities: [['松山市', '790']] },
  { name: '高知県', weight: 7, cities: [['高知市', '780']] },
  { name: '福岡県', weight: 51, cities: [['福岡市中央区', '810'], ['福岡市博多区', '812'], ['北九州市小倉北区', '802'], ['久留米市', '830']] },
  { name: '佐賀県', weight: 8, cities: [['佐賀市', '840']] },
  { name: '長崎県', weight: 13, cities: [['長崎市', '850'], ['佐世保市', '857']] },
  { name: '熊本県', weight: 17, cities: [['熊本市中央区', '860']] },
  { name: '大分県', weight: 11, cities: [['大分市', '870'], ['別府市', '874']] },
  { name: '宮崎県', weight: 11, cities: [['宮崎市', '880']] },
  { name: '鹿児島県', weight: 16, cities: [['鹿児島市', '890']] },
  { name: '沖縄県', weight: 15, cities: [['那覇市', '900'], ['沖縄市', '904']] },
];

export const TOWN_NAMES: readonly string[] = [
  '本町', '中央', '栄町', '緑町', '旭町', '若葉', '東町', '西町', '南町', '北町', '桜町', '末広町',
  '幸町', '宮前', '新町', '元町', '松原', '青葉台', '富士見', '日の出町', '曙町', '錦町', '大和町', '春日',
];

export const BUILDING_NAMES: readonly string[] = [
  'グランドハイツ', 'メゾン・ド・ソレイユ', 'コーポ桜', 'パークハウス', 'ライオンズマンション', 'サンシャイン',
  'レジデンス', 'ハイツ緑', 'シティタワー', 'ヴィラ若葉', 'ロイヤルコート', 'ブリリア',
];
